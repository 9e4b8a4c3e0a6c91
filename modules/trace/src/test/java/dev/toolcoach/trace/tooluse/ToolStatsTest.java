package dev.toolcoach.trace.tooluse;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolStatsTest {

    @Test
    void countsPerContextAndTool() {
        List<ToolUseRecord> records = new ArrayList<>(ToolUse.records(ToolUseTest.trace(Map.of()), "a", "finance"));
        records.addAll(ToolUse.records(ToolUseTest.trace(Map.of()), "a", "email"));
        List<ToolStats> stats = ToolStats.of(records, true);
        assertEquals(List.of("task:email/convert", "task:email/get_price", "task:finance/convert", "task:finance/get_price"),
                stats.stream().map(s -> s.context() + "/" + s.tool()).toList());
        ToolStats price = stats.get(3);
        assertEquals(3, price.calls());
        assertEquals(2, price.successes());
        assertEquals(1, price.failed());
        assertEquals(Map.of(ToolUseRecord.Outcome.TIMEOUT, 1L), price.failures());
        assertEquals(1, price.retries());
        assertEquals(1, price.repeats());
        assertEquals(1, price.trajectories());
        assertEquals(3.0, price.callsPerTrajectory());
        assertEquals((500 + 7 + 5) / 3.0, price.meanLatencyMillis(), 1e-9);

        List<ToolStats> all = ToolStats.of(records, false);
        assertEquals(2, all.size());
        assertEquals(ToolStats.ALL_CONTEXTS, all.get(1).context());
        assertEquals(6, all.get(1).calls());
        assertEquals(1, all.get(1).trajectories()); // the same trace id and run in both contexts
        assertEquals(Map.of(ToolUseRecord.Outcome.INVALID_ARGUMENTS, 2L), all.get(0).failures());
    }
}
