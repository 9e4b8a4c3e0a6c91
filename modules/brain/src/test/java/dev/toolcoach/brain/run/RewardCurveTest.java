package dev.toolcoach.brain.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RewardCurveTest {

    @Test
    void theMovingMeanTrailsOverTheWindowAndLeavesOutStepsWithoutAFigure() {
        assertEquals(List.of(1.0, 1.5, 2.5, 3.5), RewardCurve.movingMean(List.of(1.0, 2.0, 3.0, 4.0), 2));
        assertEquals(List.of(1.0, 1.0, 3.0), RewardCurve.movingMean(List.of(1.0, Double.NaN, 3.0), 2));
    }

    /** A run recorded before the sampled figures were: its lines read them as NaN, and its curve draws the kept groups'. */
    @Test
    void aRunRecordedBeforeTheSampledFiguresStillDraws(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("metrics.jsonl"), """
                {"step":1,"version":1,"groups":8,"dropped":0,"mean_reward":0.5,"accuracy":0.5,"rollouts_per_sec":3.0,"elapsed_sec":1.0,"groups_sampled":8,"informative_fraction":1.0,"mean_policy_lag":0.0,"max_policy_lag":0}
                {"step":2,"version":2,"groups":8,"dropped":0,"mean_reward":0.6,"accuracy":0.6,"rollouts_per_sec":3.0,"elapsed_sec":2.0,"groups_sampled":8,"informative_fraction":1.0,"mean_policy_lag":0.0,"max_policy_lag":0}
                """);
        List<StepLine> lines = RunRecorder.read(run);
        assertTrue(lines.get(0).sampledAccuracy().isNaN());
        RewardCurve.write(run.resolve("reward_curve.png"), "old run", lines);
        assertTrue(Files.size(run.resolve("reward_curve.png")) > 1_000);
    }
}
