package dev.toolcoach.tools.spi;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.finance.FinanceTools;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ToolSuiteRegistryTest {

    @Test
    void suitesAreFoundByNameAndAMissingOneIsNamedWithTheKnownOnes() {
        ToolSuiteRegistry registry = new ToolSuiteRegistry().register(ArithmeticTools.suite()).register(FinanceTools.suite());
        assertEquals(List.of("arithmetic", "finance"), registry.names());
        assertEquals(List.of("add", "divide", "multiply", "subtract"), registry.get("arithmetic").toolNames());
        assertEquals("no tool suite named 'weather'; known suites: [arithmetic, finance]",
                assertThrows(IllegalArgumentException.class, () -> registry.get("weather")).getMessage());
        assertEquals("a suite named 'finance' is already registered",
                assertThrows(IllegalArgumentException.class, () -> registry.register(FinanceTools.suite())).getMessage());
    }

    @Test
    void suitesRejectEmptinessAndNamesTheFunctionCallingApisWouldRefuse() {
        assertEquals("suite 'empty' has no tools",
                assertThrows(IllegalArgumentException.class, () -> ToolSuite.builder("empty").build()).getMessage());
        Tool spaced = new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("look up", "has a space", null);
            }

            @Override
            public ToolOutput call(ToolInvocation invocation) {
                return ToolOutput.text("");
            }
        };
        assertEquals("tool name 'look up' in suite 's' must be 1-64 letters, digits, '_' or '-'",
                assertThrows(IllegalArgumentException.class, () -> ToolSuite.builder("s").add(spaced)).getMessage());
    }
}
