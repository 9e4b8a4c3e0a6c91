package dev.toolcoach.tools.arithmetic;

import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ArithmeticToolsTest {

    private static ToolExecutor executor;

    @BeforeAll
    static void start() {
        executor = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults());
    }

    @AfterAll
    static void stop() {
        executor.close();
    }

    private static ToolResult call(String tool, Object a, Object b) throws Exception {
        return executor.call("t", new ToolCall(tool, Map.of("a", a, "b", b))).get(10, TimeUnit.SECONDS);
    }

    @Test
    void decimalsAreExact() throws Exception {
        assertEquals("0.3", call("add", 0.1, 0.2).text());
        assertEquals("-0.5", call("subtract", 1.25, 1.75).text());
        assertEquals("0.02", call("multiply", 0.1, 0.2).text());
        assertEquals("2.5", call("divide", 10, 4).text());
        assertEquals(new BigDecimal("2.5"), call("divide", 10, 4).structured());
    }

    @Test
    void integersStayIntegersAndBigNumbersStayPlain() throws Exception {
        assertEquals("100", call("multiply", 10, 10).text());
        assertEquals("12345678901234567890", call("add", new BigInteger("12345678901234567889"), 1).text());
        assertEquals("2", call("subtract", 2.50, 0.5).text());
    }

    @Test
    void nonTerminatingQuotientHas34SignificantDigits() throws Exception {
        assertEquals("0.3333333333333333333333333333333333", call("divide", 1, 3).text());
    }

    @Test
    void divisionByZeroIsAClearToolError() throws Exception {
        ToolResult result = call("divide", 1, 0);
        assertEquals(ToolResult.Status.ERROR, result.status());
        assertEquals("division by zero: the divisor b must not be 0", result.error());
    }

    @Test
    void aNumberGivenAsTextIsRejected() throws Exception {
        ToolResult result = call("add", "one", 2);
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, result.status());
        assertEquals("invalid arguments for tool 'add': a: expected number, got string \"one\"", result.error());
    }
}
