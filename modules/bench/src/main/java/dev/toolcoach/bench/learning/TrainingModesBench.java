package dev.toolcoach.bench.learning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.bench.BenchOptions;
import dev.toolcoach.bench.PreparedRun;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TrainingMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * End-to-end training in each mode from the same warmed-up model: the main job's GRPO phase ({@link TaskTrainingJob},
 * embedded) run once per mode and repeat on a copy of one run folder that holds {@code init/}, {@code distilled/} and
 * {@code eval.json} (a finished or interrupted {@code train} run of any task), so the job skips straight to training,
 * with that run's task, seed and recipe (its GRPO steps replaced, no held-out evaluations while training). The modes of
 * a repeat run one after another, so a ratio is taken side by side.
 *
 * <p>Per run: the GRPO phase's wall time and wall per step; rollouts sampled per second (every group the steps sampled,
 * dropped ones too, times the group size, over the wall time); the learner's idle share (1 minus its updates' time over
 * the wall time: the share it waited for rollouts); the time until the mean training reward over the last
 * {@code window} steps first reaches {@code target}; the test accuracy after. Then each mode's rollouts/s over async's,
 * per repeat and their mean.
 *
 * <p>Run (classpath as in {@link FinanceRecipeBench}):
 * <pre>
 * java -cp "$(cat /tmp/bench-cp.txt)" dev.toolcoach.bench.learning.TrainingModesBench run=runs/hpo-r1 \
 *     [steps=20] [modes=async,sync,turn-barrier] [repeats=2] [target=0.70] [window=5] [dataDir=../shared/data]
 * </pre>
 */
public final class TrainingModesBench {

    private TrainingModesBench() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> o = BenchOptions.parse(Map.of("run", "", "steps", "20", "modes", "async,sync,turn-barrier",
                "repeats", "1", "target", "0.70", "window", "5", "dataDir", "../shared/data"), args);
        Path source = Path.of(o.get("run"));
        if (!Files.isRegularFile(source.resolve("distilled/config.json"))) {
            System.err.println("run=" + source + " has no warmed-up model (distilled/config.json)");
            System.exit(2);
        }
        int steps = Integer.parseInt(o.get("steps"));
        List<TrainingMode> modes = Arrays.stream(o.get("modes").split(",")).map(TrainingMode::parse).toList();
        int repeats = Integer.parseInt(o.get("repeats"));
        double target = Double.parseDouble(o.get("target"));
        int window = Integer.parseInt(o.get("window"));
        JsonNode config = new ObjectMapper().readTree(source.resolve("config.json").toFile());
        String task = config.get("task").asText();
        long seed = config.get("seed").asLong();
        ObjectNode recipeJson = ((ObjectNode) config.get("recipe")).deepCopy();
        recipeJson.put("grpoSteps", steps);
        recipeJson.put("heldOutEvery", 0); // rollouts and updates alone
        ScratchRecipe recipe = new ObjectMapper().treeToValue(recipeJson, ScratchRecipe.class);
        Path work = Files.createTempDirectory("training-modes");
        System.out.printf("from %s (task %s, seed %d), %d steps of %d groups of %d, modes %s, %d repeats, load %s%n",
                source, task, seed, steps, recipe.grpo().groupsPerStep(), recipe.grpo().groupSize(), modes, repeats, Load.now());

        Map<TrainingMode, List<Result>> results = new LinkedHashMap<>();
        for (int r = 1; r <= repeats; r++) {
            for (TrainingMode mode : modes) {
                Path run = work.resolve(mode.label() + "-" + r);
                PreparedRun.copy(source, run);
                TrainingJobSpec options = TrainingJobSpec.builder().task(task).dataDir(Path.of(o.get("dataDir"))).runDir(run)
                        .mode(mode).recipe(recipe).seed(seed).build();
                Result result = run(options, recipe.grpo().groupSize(), target, window);
                results.computeIfAbsent(mode, m -> new ArrayList<>()).add(result);
                System.out.printf("%-12s repeat %d: %s, load %s%n", mode.label(), r, result, Load.now());
            }
        }
        List<Result> async = results.get(TrainingMode.ASYNC);
        if (async == null) return;
        for (Map.Entry<TrainingMode, List<Result>> e : results.entrySet()) {
            if (e.getKey() == TrainingMode.ASYNC) continue;
            double[] ratios = new double[repeats];
            for (int r = 0; r < repeats; r++) ratios[r] = async.get(r).rolloutsPerSec() / e.getValue().get(r).rolloutsPerSec();
            System.out.printf("async / %s rollouts/s: %s, mean %.2fx%n", e.getKey().label(),
                    Arrays.stream(ratios).mapToObj(x -> String.format("%.2fx", x)).toList(),
                    Arrays.stream(ratios).average().orElse(Double.NaN));
        }
    }

    /** One run's figures. */
    private record Result(double wallSec, int steps, double rolloutsPerSec, double learnerIdle, Optional<Double> toTargetSec,
                          double accuracy) {
        @Override
        public String toString() {
            return String.format("GRPO %.1f s for %d steps (%.2f s/step), %.2f rollouts/s, learner idle %.0f%%, reward >= target at %s,"
                    + " test accuracy %.1f%%", wallSec, steps, wallSec / steps, rolloutsPerSec, 100 * learnerIdle,
                    toTargetSec.map(t -> String.format("%.1f s", t)).orElse("never"), 100 * accuracy);
        }
    }

    private static Result run(TrainingJobSpec options, int groupSize, double target, int window) {
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.empty(), phase -> System.err.println("phase " + phase));
        List<StepLine> lines = RunRecorder.read(options.runDir()); // the steps, read back from the run folder
        double wall = lines.get(lines.size() - 1).elapsedSec();
        long rollouts = lines.stream().mapToLong(l -> (long) l.groupsSampled() * groupSize).sum();
        double training = lines.stream().mapToDouble(StepLine::trainSec).sum();
        Optional<Double> toTarget = Optional.empty();
        for (int i = window - 1; i < lines.size() && toTarget.isEmpty(); i++) {
            double mean = lines.subList(i - window + 1, i + 1).stream().mapToDouble(StepLine::meanReward).average().orElse(0);
            if (mean >= target) toTarget = Optional.of(lines.get(i).elapsedSec());
        }
        String after = "after_" + options.trainingConfig().algorithm().lowerName();
        return new Result(wall, lines.size(), rollouts / wall, 1 - training / wall, toTarget,
                summary.evaluations().get(after).accuracy());
    }
}
