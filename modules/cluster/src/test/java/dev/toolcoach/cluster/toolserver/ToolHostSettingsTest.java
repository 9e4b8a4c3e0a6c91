package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolHostSettingsTest {

    @Test
    void aSuitesOwnExecutorBlockOverridesTheSharedOneForItAlone() {
        ToolHostSettings defaults = ToolHostSettings.fromConfig(ConfigFactory.load());
        assertEquals(2, defaults.executor("hpo").maxConcurrentCalls(), "a cross_validate call takes a core");
        assertEquals(8, defaults.executor("finance").maxConcurrentCalls());
        assertEquals(defaults.executor("finance").callTimeout(), defaults.executor("hpo").callTimeout(), "the rest is shared");

        ToolHostSettings mine = ToolHostSettings.fromConfig(ConfigFactory.parseString(
                "toolcoach.tools { executor.call-timeout = 3s, sql.executor { max-concurrent-calls = 1 } }")
                .withFallback(ConfigFactory.load()));
        assertEquals(1, mine.executor("sql").maxConcurrentCalls());
        assertEquals(Duration.ofSeconds(3), mine.executor("sql").callTimeout(), "over the shared block as the user set it");
        assertEquals(8, mine.executor("arithmetic").maxConcurrentCalls());
    }
}
