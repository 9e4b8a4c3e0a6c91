package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.eval.EvaluationReport.RouteScore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunComparisonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A run folder as the train command leaves it: config.json, eval.json, metrics.jsonl, warmup.json. */
    static Path run(Path root, String name, long seed, int warm, Integer trained) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        JSON.writeValue(dir.resolve("config.json").toFile(), Map.of("task", "finance", "algorithm", "grpo", "mode", "async", "seed", seed));
        Map<String, EvalRecord> evals = new TreeMap<>();
        evals.put("after_warmup", record(warm));
        if (trained != null) evals.put("after_grpo", record(trained));
        JSON.writeValue(dir.resolve("eval.json").toFile(), evals);
        StringBuilder metrics = new StringBuilder();
        for (int step = 1; step <= 3; step++) {
            metrics.append("{\"step\":").append(step).append(",\"version\":").append(step)
                    .append(",\"groups\":8,\"dropped\":0,\"mean_reward\":0.5,\"accuracy\":").append(0.2 * step)
                    .append(",\"rollouts_per_sec\":1.0,\"elapsed_sec\":").append(10.0 * step)
                    .append(",\"groups_sampled\":8,\"informative_fraction\":1.0,\"mean_policy_lag\":0,\"max_policy_lag\":0}\n");
        }
        Files.writeString(dir.resolve("metrics.jsonl"), metrics);
        Files.writeString(dir.resolve(WarmupRecord.FILE), "{\"kept_pass\":2,\"passes\":[{\"pass\":1,\"trainLoss\":1.0,"
                + "\"heldOut\":{\"loss\":0.9,\"entropy\":0.5,\"tokens\":100}},{\"pass\":2,\"trainLoss\":0.5,"
                + "\"heldOut\":{\"loss\":0.4,\"entropy\":0.25,\"tokens\":100}}]}");
        return dir;
    }

    private static EvalRecord record(int correct) {
        return record(correct, null);
    }

    private static EvalRecord record(int correct, Map<String, RouteScore> routes) {
        return new EvalRecord(100, correct, correct / 100.0, EvalRecord.wilson(correct, 100), 0, Map.of(), null,
                null, null, null, null, null, routes);
    }

    /** A run whose evaluations record their accuracy per oracle route: {@code npv} right on that many of 40 questions. */
    private static Path routedRun(Path root, String name, int npvWarm, Integer npvTrained) throws Exception {
        Path dir = run(root, name, 1, 50, npvTrained == null ? null : 60);
        Map<String, EvalRecord> evals = new TreeMap<>();
        evals.put("after_warmup", record(50, Map.of("cagr", score(60, 40), "npv", score(npvWarm, 40))));
        if (npvTrained != null) evals.put("after_grpo", record(60, Map.of("cagr", score(55, 60), "npv", score(npvTrained, 40))));
        JSON.writeValue(dir.resolve("eval.json").toFile(), evals);
        return dir;
    }

    private static RouteScore score(int correct, int examples) {
        return new RouteScore(examples, correct, (double) correct / examples);
    }

    @Test
    void readsEachRunAndGivesThePairedIntervalOfTheMeanGain(@TempDir Path root) throws Exception {
        List<RunComparison.Run> runs = RunComparison.readAll(List.of(run(root, "s1", 1, 60, 64), run(root, "s2", 2, 70, 76),
                run(root, "s3", 3, 65, 67), run(root, "s4", 4, 66, null)));
        RunComparison.Run first = runs.get(0);
        assertEquals("s1", first.name());
        assertEquals(1, first.seed());
        assertEquals(0.04, first.gain(), 1e-12);
        assertEquals(3, first.steps());
        assertEquals(30.0, first.trainingSeconds());
        assertEquals(2, first.keptPass());
        assertEquals(0.25, first.warmupEntropy());
        assertNull(runs.get(3).gain(), "a run still training has no gain yet");

        RunComparison.Summary summary = RunComparison.summarise(runs);
        // gains 0.04, 0.06, 0.02: mean 0.04, sd 0.02; t(0.975, 2 df) = 4.302653; half-width 4.302653 * 0.02 / sqrt(3)
        double half = 4.302653 * 0.02 / Math.sqrt(3);
        assertEquals(3, summary.runs());
        assertEquals(0.04, summary.meanGain(), 1e-12);
        assertEquals(0.04 - half, summary.ci95().get(0), 1e-6);
        assertEquals(0.04 + half, summary.ci95().get(1), 1e-6);
        assertEquals(3, summary.improved());
        assertEquals((0.64 + 0.76 + 0.67) / 3, summary.meanTrained(), 1e-12);
    }

    @Test
    void poolsEachOracleRouteOverTheRunsWithTheLowestAndHighestRun(@TempDir Path root) throws Exception {
        List<RunComparison.Run> runs = RunComparison.readAll(List.of(routedRun(root, "a", 4, 10), routedRun(root, "b", 8, 30),
                routedRun(root, "c", 6, null)));
        assertEquals(Map.of("cagr", score(55, 60), "npv", score(30, 40)), runs.get(1).trainedRoutes());
        assertEquals(Map.of(), runs.get(2).trainedRoutes(), "a run still training has no routes after training");

        List<RunComparison.RoutePool> pools = RunComparison.byRoute(runs);
        assertEquals(List.of("cagr", "npv"), pools.stream().map(RunComparison.RoutePool::route).toList());
        RunComparison.RoutePool npv = pools.get(1);
        assertEquals(score(18, 120), npv.warmup(), "after the warm-up: 4 + 8 + 6 right of three runs' 40");
        assertEquals(score(40, 80), npv.trained(), "after training: 10 + 30 right of the two ended runs' 40");
        assertEquals(0.25, npv.lowest(), 1e-12);
        assertEquals(0.75, npv.highest(), 1e-12);
        assertEquals(2, npv.runs());

        List<String> lines = OracleRouteTable.pooledLines(pools);
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("oracle's calls, all runs") && lines.get(0).contains("range over runs"), lines.get(0));
        assertTrue(lines.get(2).startsWith("npv") && lines.get(2).contains("15.0% (18/120)") && lines.get(2).contains("50.0% (40/80)")
                && lines.get(2).endsWith("25.0-75.0% (2)"), lines.get(2));
    }

    @Test
    void runsWithoutOracleRoutesPoolNothing(@TempDir Path root) throws Exception {
        List<RunComparison.Run> runs = RunComparison.readAll(List.of(run(root, "s1", 1, 60, 64)));
        assertEquals(List.of(), RunComparison.byRoute(runs));
        assertEquals(List.of(), OracleRouteTable.pooledLines(RunComparison.byRoute(runs)));
    }

    @Test
    void oneRunHasNoIntervalAndAFolderThatIsNoRunIsAClearError(@TempDir Path root) throws Exception {
        assertNull(RunComparison.summarise(List.of(RunComparison.read(run(root, "only", 1, 50, 55)))).ci95());
        Path empty = Files.createDirectories(root.resolve("empty"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunComparison.read(empty));
        assertTrue(e.getMessage().contains("is not a run folder"), e.getMessage());
    }
}
