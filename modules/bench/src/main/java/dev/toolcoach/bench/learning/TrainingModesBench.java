package dev.toolcoach.bench.learning;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.bench.PreparedRun;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.taskjob.TrainingMode;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * End-to-end training, asynchronous against synchronous, from the same warmed-up model: the main job's GRPO
 * phase ({@link TaskTrainingJob}, embedded, the real coach, athletes, tool actors and learner) run once in
 * each mode on a copy of one run folder that holds {@code init/}, {@code distilled/} and {@code eval.json}
 * (a finished or interrupted {@code train --task finance} run), so the job skips straight to training.
 * Reports, per mode, the training wall time, the wall time until the mean training reward over the last
 * {@code window} steps first reaches {@code target}, the final test accuracy, and the ratios sync / async.
 *
 * <p>Run (classpath as in {@link FinanceRecipeBench}):
 * <pre>
 * java -cp "$(cat /tmp/bench-cp.txt)" dev.toolcoach.bench.learning.TrainingModesBench \
 *     runs/finance-... [steps=60] [target=0.70] [window=5] [dataDir=../shared/data]
 * </pre>
 */
public final class TrainingModesBench {

    private TrainingModesBench() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: TrainingModesBench <warmed-up run folder> [steps] [target reward] [window] [data dir]");
            System.exit(2);
        }
        Path source = Path.of(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        double target = args.length > 2 ? Double.parseDouble(args[2]) : 0.70;
        int window = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        Path dataDir = Path.of(args.length > 4 ? args[4] : "../shared/data");
        if (!Files.isRegularFile(source.resolve("distilled/config.json"))) {
            System.err.println(source + " has no warmed-up model (distilled/config.json)");
            System.exit(2);
        }
        long seed = new ObjectMapper().readTree(source.resolve("config.json").toFile()).get("seed").asLong();
        Path work = Files.createTempDirectory("training-modes");
        System.out.printf("from %s (seed %d), %d steps, target reward %.2f over %d steps, load %s%n",
                source, seed, steps, target, window, Load.now());
        Result async = run(TrainingMode.ASYNC, source, work, dataDir, seed, steps, target, window);
        Result sync = run(TrainingMode.SYNC, source, work, dataDir, seed, steps, target, window);
        System.out.printf("sync / async: training wall %.2fx, time to target %s%n", sync.wallSec / async.wallSec,
                async.toTargetSec.isPresent() && sync.toTargetSec.isPresent()
                        ? String.format("%.2fx", sync.toTargetSec.get() / async.toTargetSec.get()) : "n/a (not reached in both)");
    }

    private record Result(double wallSec, Optional<Double> toTargetSec, double accuracy) {
    }

    private static Result run(TrainingMode mode, Path source, Path work, Path dataDir, long seed, int steps, double target,
                              int window) throws IOException {
        Path run = work.resolve(mode.label());
        PreparedRun.copy(source, run);
        ScratchRecipe recipe = ScratchRecipe.defaults().withGrpoSteps(steps);
        TrainingJobSpec options = TrainingJobSpec.builder().task("finance").dataDir(dataDir).runDir(run)
                .mode(mode).recipe(recipe).seed(seed).build();
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.empty(), phase -> System.err.println("phase " + phase)); // steps are read back from the run folder
        List<StepLine> lines = RunRecorder.read(run);
        double wall = lines.get(lines.size() - 1).elapsedSec();
        Optional<Double> toTarget = Optional.empty();
        for (int i = window - 1; i < lines.size() && toTarget.isEmpty(); i++) {
            double mean = lines.subList(i - window + 1, i + 1).stream().mapToDouble(StepLine::meanReward).average().orElse(0);
            if (mean >= target) toTarget = Optional.of(lines.get(i).elapsedSec());
        }
        double accuracy = summary.evaluations().get("after_grpo").accuracy();
        var accounts = summary.training().accounts();
        System.out.printf("%-5s training %.1f s for %d steps, reward >= %.2f at %s, test accuracy %.1f%% (after warm-up %.1f%%), "
                        + "groups trained %d, skipped %d, dropped stale %d, load %s%n",
                mode.label(), wall, lines.size(), target, toTarget.map(t -> String.format("%.1f s", t)).orElse("never"),
                100 * accuracy, 100 * summary.evaluations().get("after_warmup").accuracy(), accounts.trained(),
                accounts.withoutSignal(), accounts.dropped().get(GroupDropped.Reason.STALE_POLICY), Load.now());
        return new Result(wall, toTarget, accuracy);
    }
}
