package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tools.hpo.BoosterConfig;
import dev.toolcoach.tools.hpo.DataSlice;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.hpo.HpoMetric;
import dev.toolcoach.trace.Trace;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The hpo task's reward: the answered configuration's score on the held-out test part, placed between two references
 * on the same slice and metric: XGBoost's defaults (0) and random search with the query's call budget (1), linear
 * between and clipped to [0, 1]. So 1 means tuning as well as random search with the same calls, and anything short of
 * beating the defaults is 0; where random search does not beat the defaults either, beating them is 1. An answer
 * without a configuration, or a rollout that made more {@code cross_validate} calls than its budget, scores 0.
 *
 * <p>The random-search reference is an expectation, not one draw: a pool of {@value #POOL} random configurations
 * (seeded, one pool per slice) is cross-validated and test-scored, and the reference is the expected test score of the
 * cross-validation winner of a random {@code budget}-subset of the pool, exact by order statistics. A single seeded
 * draw would make a query's reward hinge on that draw's luck.
 */
public final class HpoReward implements TraceReward {

    /** Configurations in each slice's random-search pool: at least the largest budget. */
    static final int POOL = 6;
    private static final long POOL_SEED = 7;

    private final HpoLab lab;

    public HpoReward(HpoLab lab) {
        this.lab = lab;
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        int budget = (int) example.number("budget").orElseThrow();
        long calls = trace.toolCalls().stream().filter(c -> c.name().equals("cross_validate")).count();
        if (trace.finalAnswer() == null || calls > budget) return 0;
        return BoosterConfig.find(trace.finalAnswer())
                .map(config -> relative(slice(example), metric(example), budget, config))
                .orElse(0.0);
    }

    /**
     * Computes the slice's references (the defaults' and the random-search pool's scores) now, so that scoring an answer
     * later is one test fit.
     */
    public void prepare(DataSlice slice) {
        test(slice, HpoMetric.of(lab.dataset(slice.dataset()).kind()).get(0), BoosterConfig.defaults());
        randomSearch(slice, HpoMetric.of(lab.dataset(slice.dataset()).kind()).get(0), 1);
    }

    /** The configuration's place between the defaults (0) and random search with {@code budget} calls (1). */
    public double relative(DataSlice slice, HpoMetric metric, int budget, BoosterConfig config) {
        double score = test(slice, metric, config);
        double defaults = test(slice, metric, BoosterConfig.defaults());
        double random = randomSearch(slice, metric, budget);
        if (random <= defaults) return score > defaults ? 1 : 0;
        return Math.max(0, Math.min(1, (score - defaults) / (random - defaults)));
    }

    /** The test score, higher better (a loss negated). */
    public double test(DataSlice slice, HpoMetric metric, BoosterConfig config) {
        return metric.oriented(lab.testScores(slice, config).get(metric));
    }

    /** Expected test score (higher better) of random search's pick with {@code budget} cross-validations. */
    public double randomSearch(DataSlice slice, HpoMetric metric, int budget) {
        if (budget < 1 || budget > POOL) throw new IllegalArgumentException("budget must be 1-" + POOL + ", got " + budget);
        record Tried(double cv, double test) {
        }
        List<Tried> pool = new ArrayList<>();
        for (BoosterConfig config : pool()) {
            try {
                pool.add(new Tried(metric.oriented(lab.crossValidate(slice, config, Long.MAX_VALUE).get(metric)),
                        test(slice, metric, config)));
            } catch (HpoLab.OutOfTime e) {
                throw new IllegalStateException("interrupted while scoring the random-search pool of " + slice, e);
            }
        }
        pool.sort(Comparator.comparingDouble(Tried::cv).reversed());
        // the i-th best of the pool wins a random budget-subset when it is in it and the rest come from the worse ones
        double expected = 0;
        for (int i = 0; i <= POOL - budget; i++) {
            expected += choose(POOL - 1 - i, budget - 1) / choose(POOL, budget) * pool.get(i).test();
        }
        return expected;
    }

    private static List<BoosterConfig> pool() {
        Random random = new Random(POOL_SEED);
        List<BoosterConfig> pool = new ArrayList<>();
        for (int i = 0; i < POOL; i++) pool.add(BoosterConfig.random(random));
        return pool;
    }

    private static double choose(int n, int k) {
        double c = 1;
        for (int i = 0; i < k; i++) c = c * (n - i) / (i + 1);
        return c;
    }

    static DataSlice slice(RewardContext example) {
        return new DataSlice(example.string("dataset").orElseThrow(),
                BigDecimal.valueOf(example.number("rows").orElseThrow()), example.string("features").orElseThrow());
    }

    static HpoMetric metric(RewardContext example) {
        return HpoMetric.valueOf(example.string("metric").orElseThrow().toUpperCase(Locale.ROOT));
    }
}
