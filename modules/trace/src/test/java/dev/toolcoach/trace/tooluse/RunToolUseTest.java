package dev.toolcoach.trace.tooluse;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunToolUseTest {

    /** One trajectory of {@code outcomes.length} calls to one tool, scored {@code reward}. */
    private static List<ToolUseRecord> trajectory(String run, String id, Double reward, ToolUseRecord.Outcome... outcomes) {
        List<ToolUseRecord> out = new ArrayList<>();
        for (int i = 0; i < outcomes.length; i++) {
            out.add(new ToolUseRecord(run, id, null, i, "task:finance", "npv", Map.of("rate", i), outcomes[i], 1, i + 1,
                    outcomes.length, i > 0, false, reward));
        }
        return out;
    }

    @Test
    void summarisesEachRunItsSolvedTrajectoriesAndTheirCalls() {
        ToolUseRecord.Outcome ok = ToolUseRecord.Outcome.SUCCESS;
        List<ToolUseRecord> records = new ArrayList<>();
        records.addAll(trajectory("r/eval/after_grpo", "a", 1.0, ok));
        records.addAll(trajectory("r/eval/after_grpo", "b", 1.0, ok, ok, ok));
        records.addAll(trajectory("r/eval/after_grpo", "c", 0.0, ToolUseRecord.Outcome.ERROR, ok));
        records.addAll(trajectory("r", "a", null, ok)); // a training trace of the same id, in another run
        List<RunToolUse> runs = RunToolUse.of(records);

        assertEquals(List.of("r/eval/after_grpo", "r"), runs.stream().map(RunToolUse::run).toList());
        RunToolUse eval = runs.get(0);
        assertEquals(3, eval.trajectories());
        assertEquals(3, eval.scored());
        assertEquals(2, eval.solved());
        assertEquals(6, eval.calls());
        assertEquals(1, eval.failed());
        assertEquals(3, eval.retries());
        assertEquals(2.0, eval.callsPerTrajectory());
        assertEquals(2.0, eval.callsPerSolved()); // (1 + 3) / 2
        // sample sd of {1, 3} is sqrt(2): 2 ± 1.96·sqrt(2)/sqrt(2)
        assertEquals(2.0 - 1.96, eval.callsPerSolvedCi95().get(0), 1e-12);
        assertEquals(2.0 + 1.96, eval.callsPerSolvedCi95().get(1), 1e-12);

        RunToolUse training = runs.get(1);
        assertEquals(1, training.trajectories());
        assertEquals(0, training.scored());
        assertEquals(0, training.solved());
        assertTrue(Double.isNaN(training.callsPerSolved()));
    }
}
