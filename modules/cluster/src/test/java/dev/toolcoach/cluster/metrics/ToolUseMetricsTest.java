package dev.toolcoach.cluster.metrics;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import dev.toolcoach.trace.tooluse.ToolUseRecord;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolUseMetricsTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    private static ToolUseRecord call(String tool, ToolUseRecord.Outcome outcome, boolean retry, boolean repeat) {
        return new ToolUseRecord("run", "t", null, 0, "task:finance", tool, Map.of(), outcome, 1, 1, 1, retry, repeat, null);
    }

    @Test
    void countsCallsByToolAndOutcomeAndRetriesAndRepeatsByTool() {
        ToolUseMetrics metrics = ToolUseMetrics.get(KIT.system());
        metrics.record(List.of(call("a", ToolUseRecord.Outcome.SUCCESS, false, false),
                call("a", ToolUseRecord.Outcome.TIMEOUT, true, false), call("a", ToolUseRecord.Outcome.SUCCESS, false, true),
                call("b", ToolUseRecord.Outcome.SUCCESS, true, false)));
        Map<String, Double> values = new HashMap<>();
        for (MetricSnapshot m : ToolCoachMetrics.get(KIT.system()).registry().scrape()) {
            if (!m.getMetadata().getName().startsWith("toolcoach_tile_")) continue;
            for (CounterSnapshot.CounterDataPointSnapshot p : ((CounterSnapshot) m).getDataPoints()) {
                values.put(m.getMetadata().getName() + p.getLabels(), p.getValue());
            }
        }
        assertEquals(Map.of("toolcoach_tile_tool_calls{outcome=\"success\",tool=\"a\"}", 2.0,
                "toolcoach_tile_tool_calls{outcome=\"timeout\",tool=\"a\"}", 1.0,
                "toolcoach_tile_tool_calls{outcome=\"success\",tool=\"b\"}", 1.0,
                "toolcoach_tile_tool_retries{tool=\"a\"}", 1.0, "toolcoach_tile_tool_retries{tool=\"b\"}", 1.0,
                "toolcoach_tile_tool_repeats{tool=\"a\"}", 1.0), values);
    }
}
