package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.distill.LearnerSft;
import dev.toolcoach.brain.eval.EvaluationReport.RouteScore;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.learn.core.SftScore;
import org.apache.commons.math3.distribution.TDistribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs of the main job side by side: what each evaluation reached, what the training phase added over the warm-up, and
 * over all runs the mean gain with its paired 95 % interval (Student's t over the runs' gains: each run is its own
 * control, so the spread between seeds' warm-ups does not widen it). The table a multi-seed claim needs.
 */
public final class RunComparison {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One run.
     *
     * @param name       the run folder's name
     * @param task       the task trained
     * @param seed       its seed
     * @param mode       sync or async
     * @param algorithm  grpo, dpo or sft
     * @param warmup     accuracy after the warm-up, or null when the run has none yet
     * @param trained    accuracy after the training phase ({@code after_<algorithm>}), or null when it has not ended
     * @param warmupCi   the warm-up's 95 % interval, or null
     * @param trainedCi  the trained policy's 95 % interval, or null
     * @param examples   test questions of the last evaluation
     * @param passAtKWarmup  pass@k on training queries after the warm-up, or null when not measured
     * @param passAtKTrained pass@k after training, or null
     * @param steps      learner steps recorded
     * @param trainingSeconds wall time of the training phase (its last step's), or null without steps
     * @param keptPass   the warm-up pass kept, or null without a warm-up record
     * @param warmupEntropy held-out entropy (nats per token) of the kept pass, or null when not measured
     * @param warmupHeldOutLoss held-out loss of the kept pass, or null when not measured
     * @param curve      the per-step accuracy of the training rollouts, in step order
     * @param jobSeconds wall time of the job's last session ({@link PhaseTimes#FILE}), or null when not recorded
     * @param warmupRoutes  accuracy per oracle route after the warm-up; empty when not recorded
     * @param trainedRoutes accuracy per oracle route after training; empty when not recorded
     */
    public record Run(String name, String task, long seed, String mode, String algorithm, Double warmup, Double trained,
                      List<Double> warmupCi, List<Double> trainedCi, int examples, Double passAtKWarmup, Double passAtKTrained,
                      int steps, Double trainingSeconds, Integer keptPass, Double warmupEntropy, Double warmupHeldOutLoss,
                      List<StepLine> curve, Double jobSeconds, Map<String, RouteScore> warmupRoutes,
                      Map<String, RouteScore> trainedRoutes) {
        /** The training phase's gain over the warm-up, or null when either is missing. */
        public Double gain() {
            return warmup == null || trained == null ? null : trained - warmup;
        }
    }

    /**
     * Over the runs that have a gain.
     *
     * @param runs        runs with both evaluations
     * @param meanGain    their mean gain
     * @param ci95        the paired 95 % interval of the mean gain (Student's t, runs − 1 degrees of freedom); null for
     *                    fewer than two runs
     * @param improved    runs whose training phase raised the accuracy
     * @param meanTrained mean accuracy after training
     */
    public record Summary(int runs, double meanGain, List<Double> ci95, int improved, double meanTrained) {
    }

    /**
     * One oracle route over the runs: where a multi-seed claim's errors are.
     *
     * @param route   the tools the oracle calls, in order
     * @param warmup  the route's test questions and right answers after the warm-up, summed over the runs that have them; null when none
     * @param trained the same after training; null when no run has ended
     * @param lowest  the lowest run's accuracy on the route after training, or null
     * @param highest the highest, or null
     * @param runs    runs with the route after training
     */
    public record RoutePool(String route, RouteScore warmup, RouteScore trained, Double lowest, Double highest, int runs) {
    }

    private RunComparison() {
    }

    /**
     * Reads a run folder.
     *
     * @throws IllegalArgumentException when it is not a run of the main job (no readable config.json or eval.json)
     */
    public static Run read(Path dir) {
        Path config = dir.resolve("config.json");
        Path evalFile = dir.resolve("eval.json");
        if (!Files.isRegularFile(config) || !Files.isRegularFile(evalFile)) {
            throw new IllegalArgumentException(dir + " is not a run folder of the train command (no config.json and eval.json)");
        }
        try {
            JsonNode settings = JSON.readTree(config.toFile());
            String algorithm = settings.path("algorithm").asText("grpo");
            Map<String, EvalRecord> evals = TaskTrainingJob.readEvals(evalFile);
            EvalRecord warm = evals.get("after_warmup");
            EvalRecord trained = evals.get("after_" + algorithm);
            EvalRecord last = trained != null ? trained : warm != null ? warm : evals.get("before_training");
            List<StepLine> lines = RunRecorder.read(dir);
            Optional<WarmupRecord> warmup = WarmupRecord.read(dir);
            Optional<SftScore> heldOut = warmup.flatMap(WarmupRecord::kept).map(LearnerSft.Pass::heldOut);
            return new Run(dir.toAbsolutePath().normalize().getFileName().toString(), settings.path("task").asText(),
                    settings.path("seed").asLong(), settings.path("mode").asText(), algorithm,
                    warm == null ? null : warm.accuracy(), trained == null ? null : trained.accuracy(),
                    warm == null ? null : warm.accuracyCi95(), trained == null ? null : trained.accuracyCi95(),
                    last == null ? 0 : last.examples(), passAtK(warm), passAtK(trained), lines.size(),
                    lines.isEmpty() ? null : lines.get(lines.size() - 1).elapsedSec(), warmup.map(WarmupRecord::keptPass).orElse(null),
                    heldOut.map(SftScore::entropy).orElse(null), heldOut.map(SftScore::loss).orElse(null), lines, jobSeconds(dir),
                    routes(warm), routes(trained));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the run folder " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Double jobSeconds(Path dir) throws IOException {
        Path file = dir.resolve(PhaseTimes.FILE);
        return Files.isRegularFile(file) ? JSON.readTree(file.toFile()).path("wall_seconds").asDouble() : null;
    }

    private static Map<String, RouteScore> routes(EvalRecord record) {
        return record == null || record.byOracleRoute() == null ? Map.of() : record.byOracleRoute();
    }

    private static Double passAtK(EvalRecord record) {
        return record == null || record.training() == null ? null : record.training().passAtK();
    }

    /** The mean gain over the runs that have one, with its paired 95 % interval. */
    public static Summary summarise(List<Run> runs) {
        List<Run> done = runs.stream().filter(r -> r.gain() != null).toList();
        int n = done.size();
        double mean = done.stream().mapToDouble(Run::gain).average().orElse(Double.NaN);
        double meanTrained = done.stream().mapToDouble(Run::trained).average().orElse(Double.NaN);
        int improved = (int) done.stream().filter(r -> r.gain() > 0).count();
        List<Double> ci = null;
        if (n >= 2) {
            double variance = done.stream().mapToDouble(r -> (r.gain() - mean) * (r.gain() - mean)).sum() / (n - 1);
            double half = new TDistribution(n - 1).inverseCumulativeProbability(0.975) * Math.sqrt(variance / n);
            ci = List.of(mean - half, mean + half);
        }
        return new Summary(n, mean, ci, improved, meanTrained);
    }

    /** Every oracle route of the runs, sorted, pooled over the runs (empty when no run records routes). */
    public static List<RoutePool> byRoute(List<Run> runs) {
        Map<String, List<RouteScore>> warm = new TreeMap<>();
        Map<String, List<RouteScore>> trained = new TreeMap<>();
        for (Run r : runs) {
            r.warmupRoutes().forEach((route, score) -> warm.computeIfAbsent(route, k -> new ArrayList<>()).add(score));
            r.trainedRoutes().forEach((route, score) -> trained.computeIfAbsent(route, k -> new ArrayList<>()).add(score));
        }
        Set<String> routes = new TreeSet<>(warm.keySet());
        routes.addAll(trained.keySet());
        List<RoutePool> pools = new ArrayList<>();
        for (String route : routes) {
            List<RouteScore> ends = trained.getOrDefault(route, List.of());
            DoubleSummaryStatistics spread = ends.stream().mapToDouble(RouteScore::accuracy).summaryStatistics();
            pools.add(new RoutePool(route, pooled(warm.get(route)), pooled(ends), ends.isEmpty() ? null : spread.getMin(),
                    ends.isEmpty() ? null : spread.getMax(), ends.size()));
        }
        return pools;
    }

    private static RouteScore pooled(List<RouteScore> scores) {
        if (scores == null || scores.isEmpty()) return null;
        int examples = scores.stream().mapToInt(RouteScore::examples).sum();
        int correct = scores.stream().mapToInt(RouteScore::correct).sum();
        return new RouteScore(examples, correct, (double) correct / examples);
    }

    /** Every run folder given, in order. */
    public static List<Run> readAll(List<Path> dirs) {
        List<Run> runs = new ArrayList<>();
        for (Path dir : dirs) runs.add(read(dir));
        return runs;
    }
}
