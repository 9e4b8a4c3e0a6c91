package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.annotated.ToolClassSuite;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** toolcoach.tools.classes as written in docs/AGENT.md: each class a suite of its key, opened beside the built-in ones. */
class ToolClassHostingTest {

    public static final class Greeter {
        @ToolMethod(description = "Greets someone")
        public String greet(@Param("who to greet") String name) {
            return "hello " + name;
        }
    }

    @Test
    void aToolClassNamedInConfigIsHostedAsASuiteOfItsKey() throws Exception {
        ToolHostSettings settings = ToolHostSettings.fromConfig(ConfigFactory.parseString("""
                toolcoach.tools {
                  suites = [arithmetic]
                  classes { greetings = "%s" }
                  mcp.servers.memory { command = node }
                }
                """.formatted(Greeter.class.getName())).withFallback(ConfigFactory.load())).checkHostable();
        assertEquals(List.of(new ToolClassSuite("greetings", Greeter.class.getName())), settings.classes());
        assertEquals(List.of("arithmetic", "greetings", "memory"), settings.hostedSuites());

        ToolHostSettings withoutMcp = new ToolHostSettings(settings.suites(), settings.options(), settings.executor(),
                settings.addedLatency(), settings.skillsPollInterval(), List.of(), settings.classes(), settings.suiteExecutors());
        List<BuiltinSuites.Hosted> hosted = HostedSuites.open(withoutMcp);
        try (ToolExecutor executor = new ToolExecutor(hosted.get(1).suite(), settings.executor())) {
            assertEquals(List.of("arithmetic", "greetings"), hosted.stream().map(h -> h.suite().name()).toList());
            ToolResult result = executor.call("t", new ToolCall("greet", Map.of("name", "Ada"))).get(10, TimeUnit.SECONDS);
            assertEquals("hello Ada", result.text());
        } finally {
            HostedSuites.closeAll(hosted);
        }
    }

    @Test
    void noClassesByDefault() {
        assertEquals(List.of(), ToolHostSettings.fromConfig(ConfigFactory.load()).classes());
    }
}
