package dev.toolcoach.tools.annotated;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A tool class named by its binary name becomes a suite; what keeps one from it is one line naming the class. */
class ToolClassSuiteTest {

    /** A LangChain4j tool class, used unchanged. */
    public static final class Greeter {
        @Tool(name = "greet", value = "Greets someone")
        public String greet(@P("who to greet") String name) {
            return "hello " + name;
        }
    }

    public static final class NoTools {
        public String greet(String name) {
            return name;
        }
    }

    public static final class NeedsArgument {
        public NeedsArgument(String key) {
        }

        @Tool("Greets")
        public String greet(@P("who") String name) {
            return name;
        }
    }

    public abstract static class Abstract {
        @Tool("Greets")
        public String greet(@P("who") String name) {
            return name;
        }
    }

    public static final class FailingConstructor {
        public FailingConstructor() {
            throw new IllegalStateException("no API key");
        }

        @Tool("Greets")
        public String greet(@P("who") String name) {
            return name;
        }
    }

    /** Counts its instances: checking a class must not run its code. */
    public static final class Counted {
        static final AtomicInteger MADE = new AtomicInteger();

        public Counted() {
            MADE.incrementAndGet();
        }

        @Tool("Greets")
        public String greet(@P("who") String name) {
            return name;
        }
    }

    private static String failure(Class<?> type, boolean open) {
        ToolClassSuite spec = new ToolClassSuite("x", type.getName());
        return assertThrows(IllegalArgumentException.class, open ? spec::open : spec::check).getMessage();
    }

    @Test
    void aLangChain4jClassByNameIsASuiteOfItsTools() throws Exception {
        ToolClassSuite spec = new ToolClassSuite("greetings", Greeter.class.getName());
        spec.check();
        ToolSuite suite = spec.open();
        assertEquals("greetings", suite.name());
        assertEquals(List.of("greet"), List.copyOf(suite.toolNames()));
        try (ToolExecutor executor = new ToolExecutor(suite, ExecutorSettings.defaults())) {
            ToolResult result = executor.call("t", new ToolCall("greet", Map.of("name", "Ada"))).get(10, TimeUnit.SECONDS);
            assertEquals(ToolResult.Status.OK, result.status());
            assertEquals("hello Ada", result.text());
        }
    }

    @Test
    void checkingRunsNoneOfTheClassesCode() {
        new ToolClassSuite("x", Counted.class.getName()).check();
        assertEquals(0, Counted.MADE.get());
    }

    @Test
    void whatKeepsAClassFromBeingASuiteIsNamed() {
        assertEquals("class com.acme.Missing is not on the class path",
                assertThrows(IllegalArgumentException.class, () -> new ToolClassSuite("x", "com.acme.Missing").check()).getMessage());
        assertEquals(NoTools.class.getName() + " has no public method annotated @ToolMethod or LangChain4j @Tool", failure(NoTools.class, false));
        assertEquals(NeedsArgument.class.getName() + " has no public no-argument constructor", failure(NeedsArgument.class, false));
        assertEquals(Abstract.class.getName() + " is abstract or an interface; name a concrete class", failure(Abstract.class, false));
        assertEquals("the constructor of " + FailingConstructor.class.getName() + " failed: java.lang.IllegalStateException: no API key",
                failure(FailingConstructor.class, true));
    }
}
