package dev.toolcoach.brain.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        RewardCurve.write(run.resolve("reward_curve.png"), "old run", lines, RunRecorder.readHeldOut(run));
        assertTrue(Files.size(run.resolve("reward_curve.png")) > 1_000);
        assertEquals(0, heldOutPixels(run.resolve("reward_curve.png")), "no held-out evaluation, no held-out points");
    }

    @Test
    void theHeldOutEvaluationsAreDrawnAsPointsInTheirOwnColour(@TempDir Path run) throws Exception {
        List<StepLine> lines = new ArrayList<>();
        for (int step = 1; step <= 20; step++) lines.add(line(step, 0.6));
        List<HeldOutLine> heldOut = List.of(new HeldOutLine(10, 10, 64, 40, 40 / 64.0, List.of(0.5, 0.73), 0.7),
                new HeldOutLine(20, 20, 64, 50, 50 / 64.0, List.of(0.67, 0.86), 0.8));
        RewardCurve.write(run.resolve("reward_curve.png"), "held out", lines, heldOut);
        assertTrue(heldOutPixels(run.resolve("reward_curve.png")) > 50);
    }

    private static StepLine line(long step, double accuracy) throws Exception {
        return new ObjectMapper().readValue(String.format(java.util.Locale.ROOT, "{\"step\":%d,\"version\":%d,\"groups\":8,"
                + "\"dropped\":0,\"mean_reward\":%s,\"accuracy\":%s,\"sampled_accuracy\":%s,\"sampled_mean_reward\":%s,"
                + "\"rollouts_per_sec\":3.0,\"elapsed_sec\":1.0,\"groups_sampled\":8,\"informative_fraction\":1.0,"
                + "\"mean_policy_lag\":0.0,\"max_policy_lag\":0}", step, step, accuracy, accuracy, accuracy, accuracy), StepLine.class);
    }

    /** Pixels of the held-out series' colour (its points and the legend's mark). */
    private static int heldOutPixels(Path png) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == ((170 << 16) | (20 << 8) | 40)) count++;
            }
        }
        return count;
    }
}
