package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.hpo.BoosterConfig;
import dev.toolcoach.tools.hpo.DataSlice;
import dev.toolcoach.tools.hpo.HpoDataset;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.hpo.HpoMetric;
import dev.toolcoach.tools.hpo.HpoTools;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * Tune XGBoost on real tabular data with a budget of {@code cross_validate} calls, as ToolBrain's LightGBM use case
 * does: each query names a dataset, the metric, the rows and features to use (all, half or 30% of the training rows, or
 * the first or last half of the features) and the budget (2-6 calls). The answer is the chosen configuration in the
 * tools' own {@code name=value} format; {@link HpoReward} scores it on the held-out test part against the defaults and
 * random search. The oracle tunes as a practitioner would within the budget: a strong prior first (200 trees at rate
 * 0.1, depth 4, 80% row and feature sampling), then greedy coordinate moves around the best so far (shallower, deeper,
 * half the rate with twice the trees, heavier leaves, fewer features per tree), keeping a move only where the
 * cross-validated score improves, and answers the best it saw. Its replies stay short (a few words, one call) for a
 * scratch model's 64 new tokens. Building the task runs the oracle's searches for real; the lab's cache shares their
 * common prefixes.
 */
public final class HpoTask {

    public static final String NAME = "hpo";
    static final List<Integer> BUDGETS = List.of(2, 3, 4, 5, 6);

    private record Move(String thought, UnaryOperator<BoosterConfig> apply) {
    }

    private static final BoosterConfig PRIOR = BoosterConfig.defaults().with("n_estimators", 200).with("learning_rate", 0.1)
            .with("max_depth", 4).with("subsample", 0.8).with("colsample_bytree", 0.8);

    private static final List<Move> MOVES = List.of(
            new Move("Shallower trees.", c -> c.with("max_depth", 2)),
            new Move("Deeper trees.", c -> c.with("max_depth", 6)),
            new Move("Half the rate, twice the trees.", c -> c.with("learning_rate", c.get("learning_rate") / 2)
                    .with("n_estimators", Math.min(400, 2 * c.get("n_estimators")))),
            new Move("Heavier leaves.", c -> c.with("min_child_weight", 3)),
            new Move("Fewer features per tree.", c -> c.with("colsample_bytree", 0.5)));

    /**
     * What a query asks: its data, metric and budget.
     *
     * @param slice  the dataset's rows and features used
     * @param metric what is optimised
     * @param budget most {@code cross_validate} calls
     */
    public record Query(DataSlice slice, HpoMetric metric, int budget) {
    }

    private HpoTask() {
    }

    /** Every distinct query over the given datasets, in a fixed order. */
    public static List<Query> queries(HpoLab lab, List<String> datasets) {
        List<Query> queries = new ArrayList<>();
        for (String name : datasets) {
            HpoDataset data = lab.dataset(name);
            int half = data.featureCount() / 2;
            List<DataSlice> slices = List.of(DataSlice.whole(name), DataSlice.whole(name).withRows(0.5),
                    DataSlice.whole(name).withRows(0.3),
                    DataSlice.whole(name).withFeatures("0-" + (half - 1)),
                    DataSlice.whole(name).withFeatures(half + "-" + (data.featureCount() - 1)));
            for (DataSlice slice : slices) {
                for (HpoMetric metric : HpoMetric.of(data.kind())) {
                    for (int budget : BUDGETS) queries.add(new Query(slice, metric, budget));
                }
            }
        }
        return queries;
    }

    /** The task over all four datasets, its examples shuffled with {@code seed}. */
    public static Task create(HpoLab lab, long seed) {
        return create(lab, HpoDataset.NAMES, seed);
    }

    /** The task over some datasets (a short one for checks), its examples shuffled with {@code seed}. */
    public static Task create(HpoLab lab, List<String> datasets, long seed) {
        List<Query> queries = queries(lab, datasets);
        // the searches are independent and the lab is thread-safe; each is deterministic whatever the order
        List<TaskExample> examples = new ArrayList<>(queries.parallelStream().map(q -> example(lab, q)).toList());
        Collections.shuffle(examples, new Random(seed));
        return new SimpleTask(NAME, List.of(HpoTools.SUITE), examples, new HpoReward(lab));
    }

    /** The oracle's search: the configurations it tries, in order, and the best. */
    record Search(List<BoosterConfig> tried, List<String> thoughts, List<Double> scores, BoosterConfig best, double bestScore) {
    }

    static Search search(HpoLab lab, Query q) {
        List<BoosterConfig> tried = new ArrayList<>();
        List<String> thoughts = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        BoosterConfig best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        BoosterConfig next = PRIOR;
        String thought = "Start from a strong prior.";
        for (int call = 0; call < q.budget(); call++) {
            double score = cv(lab, q, next);
            tried.add(next);
            thoughts.add(thought);
            scores.add(score);
            if (q.metric().oriented(score) > (best == null ? Double.NEGATIVE_INFINITY : q.metric().oriented(bestScore))) {
                best = next;
                bestScore = score;
            }
            if (call + 1 == q.budget()) break;
            next = null;
            for (Move move : MOVES) { // the first move that gives a configuration not tried yet
                BoosterConfig candidate = move.apply.apply(best);
                if (!tried.contains(candidate)) {
                    next = candidate;
                    thought = "Best " + format(bestScore) + ". " + move.thought;
                    break;
                }
            }
            if (next == null) break;
        }
        return new Search(tried, thoughts, scores, best, bestScore);
    }

    private static double cv(HpoLab lab, Query q, BoosterConfig config) {
        try {
            return lab.crossValidate(q.slice(), config, Long.MAX_VALUE).get(q.metric());
        } catch (HpoLab.OutOfTime e) {
            throw new IllegalStateException("interrupted while the hpo oracle searched " + q, e);
        }
    }

    private static TaskExample example(HpoLab lab, Query q) {
        Search s = search(lab, q);
        List<OracleStep> steps = new ArrayList<>();
        for (int i = 0; i < s.tried().size(); i++) steps.add(OracleStep.call(s.thoughts().get(i), call(q, s.tried().get(i))));
        steps.add(OracleStep.answer("Best cv " + q.metric().label() + " " + format(s.bestScore()) + ".", s.best().text()));
        Map<String, Object> gold = new LinkedHashMap<>();
        gold.put("dataset", q.slice().dataset());
        gold.put("metric", q.metric().label());
        gold.put("rows", q.slice().rows().doubleValue());
        gold.put("features", q.slice().features());
        gold.put("budget", q.budget());
        return TaskExample.question(id(q), question(q), s.best().text(), steps, gold);
    }

    private static ToolCall call(Query q, BoosterConfig config) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("dataset", q.slice().dataset());
        args.put("metric", q.metric().label());
        if (q.slice().rows().doubleValue() < 1) args.put("rows", q.slice().rows().doubleValue());
        if (!q.slice().features().equals(DataSlice.ALL)) args.put("features", q.slice().features());
        args.put("config", config.text());
        return new ToolCall("cross_validate", args);
    }

    static String question(Query q) {
        Random phrasing = new Random(id(q).hashCode());
        String data = q.slice().dataset().replace('_', ' ');
        String what = q.slice().rows().doubleValue() < 1
                ? " with rows=" + q.slice().rows().toPlainString() + " (that share of the training rows)"
                : q.slice().features().equals(DataSlice.ALL) ? "" : " with features=" + q.slice().features() + " only";
        String[] templates = {
                "Tune XGBoost on the %s dataset%s for the best %s, with at most %d cross_validate calls. Answer with the configuration.",
                "Find good XGBoost hyperparameters for %s%s, optimising %s; you may call cross_validate %d times. Give the configuration.",
                "With a budget of %4$d cross-validations, tune a gradient-boosted model on %1$s%2$s for %3$s and answer its configuration."};
        return templates[phrasing.nextInt(templates.length)].formatted(data, what, q.metric().label(), q.budget());
    }

    private static String id(Query q) {
        String rows = q.slice().rows().doubleValue() < 1 ? "_rows" + q.slice().rows().toPlainString() : "";
        String features = q.slice().features().equals(DataSlice.ALL) ? "" : "_f" + q.slice().features();
        return NAME + "_" + q.slice().dataset() + rows + features + "_" + q.metric().label() + "_b" + q.budget();
    }

    private static String format(double score) {
        return String.format(Locale.ROOT, "%.4f", score);
    }
}
