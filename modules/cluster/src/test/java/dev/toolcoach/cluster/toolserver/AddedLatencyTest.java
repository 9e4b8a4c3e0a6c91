package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.node.NodeConfigException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddedLatencyTest {

    @Test
    void offByDefaultAndThenAnswersPassStraightThrough() {
        ToolHostSettings settings = ToolHostSettings.fromConfig(ConfigFactory.load());
        assertTrue(settings.addedLatency().isOff());
        CompletableFuture<String> answer = CompletableFuture.completedFuture("x");
        assertSame(answer, AddedLatency.NONE.delay(answer));
        assertEquals(0, AddedLatency.NONE.drawMillis());
    }

    @Test
    void drawsStayWithinTheBoundsAndSpreadOverThem() {
        AddedLatency latency = new AddedLatency(Duration.ofMillis(5), Duration.ofMillis(200));
        long low = 0;
        for (int i = 0; i < 2000; i++) {
            long ms = latency.drawMillis();
            assertTrue(ms >= 5 && ms <= 200, "drawn " + ms);
            if (ms < 32) low++; // log-uniform: 5-32 ms is more than half of the log range
        }
        assertTrue(low > 900 && low < 1400, "draws below 32 ms: " + low);
        assertEquals(7, new AddedLatency(Duration.ofMillis(7), Duration.ofMillis(7)).drawMillis());
    }

    @Test
    void anAnswerIsHeldBackAtLeastTheShortestLatency() {
        AddedLatency latency = new AddedLatency(Duration.ofMillis(80), Duration.ofMillis(100));
        long start = System.nanoTime();
        assertEquals("x", latency.delay(CompletableFuture.completedFuture("x")).join());
        assertTrue(System.nanoTime() - start >= 80_000_000L);
    }

    @Test
    void isReadFromTheToolsConfigAndCheckedThere() {
        ToolHostSettings settings = ToolHostSettings.fromConfig(ConfigFactory.parseString(
                "toolcoach.tools.added-latency { min = 5ms, max = 200ms }").withFallback(ConfigFactory.load()));
        assertEquals(new AddedLatency(Duration.ofMillis(5), Duration.ofMillis(200)), settings.addedLatency());
        NodeConfigException bad = assertThrows(NodeConfigException.class, () -> ToolHostSettings.fromConfig(ConfigFactory.parseString(
                "toolcoach.tools.added-latency { min = 0ms, max = 200ms }").withFallback(ConfigFactory.load())));
        assertTrue(bad.getMessage().startsWith("toolcoach.tools.added-latency: "), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new AddedLatency(Duration.ofMillis(50), Duration.ofMillis(10)));
    }
}
