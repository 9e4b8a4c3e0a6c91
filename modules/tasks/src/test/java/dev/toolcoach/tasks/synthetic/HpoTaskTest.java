package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.hpo.BoosterConfig;
import dev.toolcoach.tools.hpo.HpoDataset;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.hpo.HpoTools;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HpoTaskTest {

    private static final AgentConfig CONFIG = AgentConfig.defaults().withLimits(8, 200_000).withTools(Duration.ofSeconds(30), 100_000);
    private static HpoLab lab;
    private static Task wine;

    @BeforeAll
    static void task() {
        lab = new HpoLab(SharedData.require("hpo"));
        wine = HpoTask.create(lab, List.of(HpoDataset.WINE), 1);
    }

    @Test
    void hundredsOfDistinctQueries() {
        List<HpoTask.Query> queries = HpoTask.queries(lab, HpoDataset.NAMES);
        Set<String> texts = new HashSet<>();
        queries.forEach(q -> texts.add(HpoTask.question(q)));
        assertEquals(216, queries.size());
        assertEquals(queries.size(), new HashSet<>(queries).size());
        assertEquals(queries.size(), texts.size(), "every query reads differently");
    }

    /** The CI-sized check: a one-dataset task builds, its oracle runs through the agent loop and real tools, and scores. */
    @Test
    void theOracleRunsThroughTheToolsAndItsAnswerScores() throws Exception {
        assertEquals(27, wine.examples().size());
        try (ToolExecutor tools = new ToolExecutor(HpoTools.suite(lab), ExecutorSettings.defaults())) {
            for (TaskExample ex : wine.examples().subList(0, 5)) {
                Trace trace = OracleRollout.run(ex, tools, CONFIG).toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertEquals(ex.goldAnswer(), trace.finalAnswer(), ex.id());
                assertEquals(((Number) ex.gold().get("budget")).intValue(), trace.toolCalls().size(), ex.id());
                assertTrue(trace.toolResults().stream().allMatch(r -> r.ok()), ex.id());
                double reward = wine.reward().score(ex, trace);
                assertTrue(reward >= 0 && reward <= 1, ex.id() + " " + reward);
            }
        }
    }

    @Test
    void defaultsScoreZeroAndTheOracleBeatsThemOnMostQueries() {
        HpoReward reward = (HpoReward) wine.reward();
        int better = 0;
        double sum = 0;
        for (TaskExample ex : wine.examples()) {
            RewardContext ctx = RewardContext.of(ex);
            int budget = ((Number) ex.gold().get("budget")).intValue();
            assertEquals(0.0, reward.relative(HpoReward.slice(ctx), HpoReward.metric(ctx), budget, BoosterConfig.defaults()));
            double oracle = reward.relative(HpoReward.slice(ctx), HpoReward.metric(ctx), budget, BoosterConfig.parse(ex.goldAnswer()));
            if (oracle > 0) better++;
            sum += oracle;
        }
        System.out.printf("hpo wine: the oracle beats the defaults on %d of %d queries, mean reward %.3f%n",
                better, wine.examples().size(), sum / wine.examples().size());
        assertTrue(better > wine.examples().size() / 2, better + " of " + wine.examples().size());
    }

    /**
     * The oracle against the defaults and random search on every query of the whole task, for the record: minutes on
     * two cores, so only with {@code -Dtoolcoach.hpo.measure=true}.
     */
    @Test
    void measureTheOracleOnTheWholeTask() {
        assumeTrue(Boolean.getBoolean("toolcoach.hpo.measure"), "skipped: set -Dtoolcoach.hpo.measure=true to measure");
        long start = System.nanoTime();
        Task task = HpoTask.create(lab, 1);
        System.out.printf("hpo: built %d queries in %d s%n", task.examples().size(), (System.nanoTime() - start) / 1_000_000_000);
        HpoReward reward = (HpoReward) task.reward();
        java.util.Map<String, double[]> byDataset = new java.util.TreeMap<>(); // queries, above defaults, at or above random, reward
        for (TaskExample ex : task.examples()) {
            RewardContext ctx = RewardContext.of(ex);
            int budget = ((Number) ex.gold().get("budget")).intValue();
            var slice = HpoReward.slice(ctx);
            var metric = HpoReward.metric(ctx);
            BoosterConfig chosen = BoosterConfig.parse(ex.goldAnswer());
            double oracle = reward.test(slice, metric, chosen);
            double r = reward.relative(slice, metric, budget, chosen);
            double[] row = byDataset.computeIfAbsent(slice.dataset(), k -> new double[4]);
            row[0]++;
            if (oracle > reward.test(slice, metric, BoosterConfig.defaults())) row[1]++;
            if (oracle >= reward.randomSearch(slice, metric, budget)) row[2]++;
            row[3] += r;
        }
        byDataset.forEach((name, row) -> System.out.printf("hpo %s: %d queries, oracle above defaults on %d, at or above"
                + " random search on %d, mean reward %.3f%n", name, (int) row[0], (int) row[1], (int) row[2], row[3] / row[0]));
        System.out.printf("hpo: measured in %d s%n", (System.nanoTime() - start) / 1_000_000_000);
    }

    @Test
    void noConfigurationOrMoreCallsThanTheBudgetScoresZero() throws Exception {
        TaskExample ex = wine.examples().stream().filter(e -> e.gold().get("budget").equals(3)).findFirst().orElseThrow();
        try (ToolExecutor tools = new ToolExecutor(HpoTools.suite(lab), ExecutorSettings.defaults())) {
            Trace right = OracleRollout.run(ex, tools, CONFIG).toCompletableFuture().get(60, TimeUnit.SECONDS);
            Trace noConfiguration = new Trace(right.rolloutId(), right.groupId(), right.queryId(), right.query(), right.turns(),
                    right.tokens(), "The defaults are fine, I think.", Termination.ANSWER, null, right.startedAtMillis(),
                    right.durationMillis(), right.metadata());
            assertEquals(0.0, wine.reward().score(noConfiguration, RewardContext.of(ex)));
            assertEquals(0.0, wine.reward().score(right, RewardContext.of(ex).withField("budget", 2)));
            assertEquals(wine.reward().score(right, RewardContext.of(ex)),
                    wine.reward().score(right, RewardContext.of(ex).withField("budget", 4)));
        }
    }

    @Test
    void theAnswerIsReadFromTheFinalTextOrNotAtAll() {
        assertTrue(BoosterConfig.find("I could not decide.").isEmpty());
        assertTrue(BoosterConfig.find("max_depth=40").isEmpty());
        assertEquals(BoosterConfig.parse("max_depth=3 learning_rate=0.05"),
                BoosterConfig.find("{\"max_depth\": 3, \"learning_rate\": 0.05}").orElseThrow());
    }
}
