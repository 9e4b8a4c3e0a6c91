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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Tune XGBoost on real tabular data with a budget of {@code cross_validate} calls, as ToolBrain's LightGBM use case
 * does: each query names a dataset, the metric ({@link #metrics}), the rows (all, 60% or 30% of the training part) and
 * features (all, or the first or last half) to use, and the budget (1-3 calls, what the default recipe's 4 turns leave
 * for the answer). The answer is the chosen configuration in the tools' own {@code name=value} format;
 * {@link HpoReward} scores it on the held-out test part against the defaults and random search.
 *
 * <p>The oracle tunes as a practitioner would within the budget: a strong prior first (200 trees at rate 0.1, depth 4,
 * 80% row and feature sampling), then coordinate search around the best so far, one parameter at a time, keeping a move
 * only where the cross-validated score improves: tree depth first (shallower first below {@value #SMALL_DATA_ROWS}
 * training rows, deeper first above; the other direction only if the first did not help), then half the rate with
 * twice the trees, heavier leaves and fewer features per tree. It answers the best configuration it saw. Its replies
 * stay short (a few words, one call) for a scratch model's 64 new tokens.
 *
 * <p>Building the task runs every oracle search and every reward reference for real, in parallel (a minute or so on
 * two cores for the whole task), so rewards in training and evaluation are one test fit each; the lab's cache shares
 * the searches' common starts.
 */
public final class HpoTask {

    public static final String NAME = "hpo";
    private static final Logger LOG = LoggerFactory.getLogger(HpoTask.class);
    /** At most 3 calls and the answer: the default recipe's 4 turns a rollout. */
    static final List<Integer> BUDGETS = List.of(1, 2, 3);
    static final List<Double> ROWS = List.of(1.0, 0.6, 0.3);

    /** A step of coordinate search: which parameter it moves, and how. */
    private record Move(String coordinate, String thought, UnaryOperator<BoosterConfig> apply) {
    }

    private static final BoosterConfig PRIOR = BoosterConfig.defaults().with("n_estimators", 200).with("learning_rate", 0.1)
            .with("max_depth", 4).with("subsample", 0.8).with("colsample_bytree", 0.8);
    private static final Move SHALLOWER = new Move("depth", "Shallower trees.", c -> c.with("max_depth", 2));
    private static final Move DEEPER = new Move("depth", "Deeper trees.", c -> c.with("max_depth", 6));
    private static final List<Move> THEN = List.of(
            new Move("rate", "Half the rate, twice the trees.", c -> c.with("learning_rate", c.get("learning_rate") / 2)
                    .with("n_estimators", Math.min(400, 2 * c.get("n_estimators")))),
            new Move("leaves", "Heavier leaves.", c -> c.with("min_child_weight", 3)),
            new Move("columns", "Fewer features per tree.", c -> c.with("colsample_bytree", 0.5)));
    /** Below this many rows an expert first tries simpler trees, above it deeper ones. */
    private static final int SMALL_DATA_ROWS = 500;
    static final int ACCURACY_TEST_ROWS = 100;

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
            List<String> features = List.of(DataSlice.ALL, "0-" + (half - 1), half + "-" + (data.featureCount() - 1));
            for (double rows : ROWS) {
                for (String f : features) {
                    DataSlice slice = DataSlice.whole(name).withRows(rows).withFeatures(f);
                    for (HpoMetric metric : metrics(lab, data)) {
                        for (int budget : BUDGETS) queries.add(new Query(slice, metric, budget));
                    }
                }
            }
        }
        return queries;
    }

    /**
     * The metrics a query on the dataset may ask for: accuracy only where the test part has at least
     * {@value #ACCURACY_TEST_ROWS} rows. On fewer (wine's 45) accuracy moves in steps of 2% and mostly ties, often at
     * 100%, so it cannot tell a tuned configuration from the defaults.
     */
    static List<HpoMetric> metrics(HpoLab lab, HpoDataset data) {
        return HpoMetric.of(data.kind()).stream()
                .filter(m -> m != HpoMetric.ACCURACY || lab.testRows(data.name()) >= ACCURACY_TEST_ROWS).toList();
    }

    /** The task over all four datasets, its examples shuffled with {@code seed}. */
    public static Task create(HpoLab lab, long seed) {
        return create(lab, HpoDataset.NAMES, seed);
    }

    /**
     * The task over some datasets, its examples shuffled with {@code seed}: over one dataset it is a short task, named
     * {@code hpo-<dataset>} ({@link #name}); wine's builds in seconds.
     */
    public static Task create(HpoLab lab, List<String> datasets, long seed) {
        List<Query> queries = queries(lab, datasets);
        List<DataSlice> slices = queries.stream().map(Query::slice).distinct().toList();
        // a minute or more of CPU for the whole task, with nothing else on the console meanwhile
        LOG.info("hpo: running the oracle's search for {} queries and the reward's references on {} slices", queries.size(),
                slices.size());
        long start = System.nanoTime();
        // the searches are independent and the lab is thread-safe; each is deterministic whatever the order
        List<TaskExample> examples = new ArrayList<>(queries.parallelStream().map(q -> example(lab, q)).toList());
        HpoReward reward = new HpoReward(lab);
        slices.parallelStream().forEach(reward::prepare);
        LOG.info("hpo: task built in {} s", (System.nanoTime() - start) / 1_000_000_000);
        Collections.shuffle(examples, new Random(seed));
        return new SimpleTask(name(datasets), List.of(HpoTools.SUITE), examples, reward);
    }

    /** {@code hpo} over every dataset, else {@code hpo-} and the datasets' names joined by {@code +}. */
    public static String name(List<String> datasets) {
        return datasets.equals(HpoDataset.NAMES) ? NAME : NAME + "-" + String.join("+", datasets);
    }

    /** The oracle's search: the configurations it tries, in order, and the best. */
    record Search(List<BoosterConfig> tried, List<String> thoughts, BoosterConfig best, double bestScore) {
    }

    static Search search(HpoLab lab, Query q) {
        List<Move> moves = new ArrayList<>(lab.trainingRows(q.slice()) < SMALL_DATA_ROWS ? List.of(SHALLOWER, DEEPER)
                : List.of(DEEPER, SHALLOWER));
        moves.addAll(THEN);
        List<BoosterConfig> tried = new ArrayList<>();
        List<String> thoughts = new ArrayList<>();
        BoosterConfig best = PRIOR;
        double bestScore = cv(lab, q, PRIOR);
        tried.add(PRIOR);
        thoughts.add("Start from a strong prior.");
        Set<String> settled = new HashSet<>(); // a coordinate whose move improved: its other moves are skipped
        for (Move move : moves) {
            if (tried.size() == q.budget()) break;
            BoosterConfig candidate = move.apply.apply(best);
            if (settled.contains(move.coordinate) || tried.contains(candidate)) continue;
            double score = cv(lab, q, candidate);
            tried.add(candidate);
            thoughts.add("Best " + format(bestScore) + ". " + move.thought);
            if (q.metric().oriented(score) > q.metric().oriented(bestScore)) {
                best = candidate;
                bestScore = score;
                settled.add(move.coordinate);
            }
        }
        return new Search(tried, thoughts, best, bestScore);
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
        String rows = q.slice().rows().doubleValue() < 1 ? " with rows=" + q.slice().rows().toPlainString() : "";
        String what = rows + (q.slice().features().equals(DataSlice.ALL) ? ""
                : (rows.isEmpty() ? " with" : " and") + " features=" + q.slice().features());
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
