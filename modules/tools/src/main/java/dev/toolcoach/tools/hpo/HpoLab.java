package dev.toolcoach.tools.hpo;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Trains and scores XGBoost models on the datasets of one folder. Each dataset is split once, with a fixed seed, into a
 * training part (the tools' {@link #crossValidate}) and a held-out test part only {@link #testScores} reads, which a
 * task scores answers on. Everything is deterministic: fixed split, fixed folds, XGBoost seeded and on one thread
 * (which also bounds a call to one core), so one configuration on one slice always gets one result; results are cached
 * by slice and configuration, computed once even when asked for twice at the same time. Safe to use from several
 * threads.
 */
public final class HpoLab {

    /** Share of each dataset held out from the tools. */
    public static final double TEST_SHARE = 0.25;
    /** Three folds, not five: half the training per call, which a task's build (every oracle search) pays 216 times. */
    public static final int FOLDS = 3;
    private static final long SPLIT_SEED = 42;
    /** Results kept: about 200 bytes each, so the cache stays within a few MB however many configurations are tried. */
    private static final int CACHE_ENTRIES = 20_000;

    private final Path dir;
    private final Map<String, Split> splits = new ConcurrentHashMap<>();
    private final Map<Key, CompletableFuture<Scores>> results = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<Scores>> eldest) {
                    return size() > CACHE_ENTRIES;
                }
            });
    private final AtomicLong trainings = new AtomicLong();

    private static final Map<Path, HpoLab> SHARED = new ConcurrentHashMap<>();

    /**
     * A lab of its own over the datasets in {@code dir} (the shared data's {@code hpo/} folder), each read when first
     * used, with an empty cache.
     */
    public HpoLab(Path dir) {
        this.dir = dir;
    }

    /**
     * The one lab of this JVM over {@code dir}. A result depends only on the data, the slice and the configuration, so
     * every user in a process shares one cache: in a one-JVM job the task's build, the oracle's replays for the
     * vocabulary and the warm-up, and the embedded tool node compute each oracle call once, not three times.
     */
    public static HpoLab shared(Path dir) {
        return SHARED.computeIfAbsent(dir.toAbsolutePath().normalize(), HpoLab::new);
    }

    /** A score per metric that applies to the slice's dataset. */
    public record Scores(Map<HpoMetric, Double> byMetric) {
        public Scores {
            byMetric = Collections.unmodifiableMap(new EnumMap<>(byMetric));
        }

        public double get(HpoMetric metric) {
            Double v = byMetric.get(metric);
            if (v == null) throw new IllegalArgumentException("metric " + metric.label() + " was not scored here");
            return v;
        }
    }

    /** A call ran out of its time (or its thread was interrupted) before its result was ready. */
    public static final class OutOfTime extends Exception {
        public OutOfTime(String message) {
            super(message);
        }
    }

    /** A dataset's rows split once: the training part (shuffled, so a leading share is a fair sample) and the test. */
    private record Split(HpoDataset data, int[] train, int[] test) {
    }

    private record Key(DataSlice slice, BoosterConfig config, boolean test) {
    }

    public HpoDataset dataset(String name) {
        return split(name).data;
    }

    /** Rows of the dataset's held-out test part. */
    public int testRows(String dataset) {
        return split(dataset).test.length;
    }

    /** Rows of the slice's training part (what cross-validation folds). */
    public int trainingRows(DataSlice slice) {
        return rowsOf(split(slice.dataset()), slice).length;
    }

    /**
     * {@value #FOLDS}-fold cross-validation of the configuration on the slice's training part: every metric of the
     * dataset's kind over the out-of-fold predictions.
     *
     * @param deadlineNanos {@link System#nanoTime()} past which boosting stops (checked between rounds, as is the
     *                      thread's interrupt)
     * @throws OutOfTime when the deadline passed or the thread was interrupted before the result was ready
     */
    public Scores crossValidate(DataSlice slice, BoosterConfig config, long deadlineNanos) throws OutOfTime {
        return cached(new Key(slice, config, false), deadlineNanos);
    }

    /** The configuration trained on the slice's whole training part, scored on the held-out test part; no deadline. */
    public Scores testScores(DataSlice slice, BoosterConfig config) {
        try {
            return cached(new Key(slice, config, true), Long.MAX_VALUE);
        } catch (OutOfTime e) {
            throw new IllegalStateException("interrupted while scoring " + config + " on the test part of " + slice, e);
        }
    }

    /** How many models were trained (a cross-validation trains one per fold): what the cache saves. */
    public long trainings() {
        return trainings.get();
    }

    private Scores cached(Key key, long deadlineNanos) throws OutOfTime {
        while (true) {
            CompletableFuture<Scores> mine = new CompletableFuture<>();
            CompletableFuture<Scores> existing = results.putIfAbsent(key, mine);
            if (existing == null) {
                try {
                    Scores scores = compute(key, deadlineNanos);
                    mine.complete(scores);
                    return scores;
                } catch (OutOfTime | RuntimeException e) {
                    results.remove(key, mine); // a call cut short is no result: the next one computes it again
                    mine.completeExceptionally(e);
                    throw e;
                }
            }
            try {
                long wait = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
                return existing.get(Math.max(0, wait), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new OutOfTime("the same configuration is being scored by another call and was not ready in time");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OutOfTime("interrupted while waiting for the same configuration scored by another call");
            } catch (ExecutionException | CancellationException e) {
                // that call ran out of its own time: try again within ours
            }
        }
    }

    private Scores compute(Key key, long deadlineNanos) throws OutOfTime {
        Split split = split(key.slice.dataset());
        HpoDataset data = split.data;
        int[] columns = key.slice.columns(data.featureCount());
        int[] rows = rowsOf(split, key.slice);
        if (key.test) {
            float[][] predictions = fitAndPredict(data, rows, split.test, columns, key.config, deadlineNanos);
            return scores(data, predictions, labels(data, split.test));
        }
        float[][] outOfFold = new float[rows.length][];
        for (int fold = 0; fold < FOLDS; fold++) {
            List<Integer> fit = new ArrayList<>();
            List<Integer> held = new ArrayList<>();
            for (int i = 0; i < rows.length; i++) (i % FOLDS == fold ? held : fit).add(i);
            float[][] predictions = fitAndPredict(data, pick(rows, fit), pick(rows, held), columns, key.config, deadlineNanos);
            for (int j = 0; j < held.size(); j++) outOfFold[held.get(j)] = predictions[j];
        }
        return scores(data, outOfFold, labels(data, rows));
    }

    private static Scores scores(HpoDataset data, float[][] predictions, float[] labels) {
        Map<HpoMetric, Double> byMetric = new HashMap<>();
        for (HpoMetric metric : HpoMetric.of(data.kind())) byMetric.put(metric, metric.score(predictions, labels));
        return new Scores(byMetric);
    }

    private float[][] fitAndPredict(HpoDataset data, int[] fitRows, int[] predictRows, int[] columns, BoosterConfig config,
                                    long deadlineNanos) throws OutOfTime {
        trainings.incrementAndGet();
        DMatrix fit = null;
        DMatrix predict = null;
        Booster booster = null;
        try {
            fit = matrix(data, fitRows, columns);
            predict = matrix(data, predictRows, columns);
            booster = XGBoost.train(fit, boosterParams(data, config), 0, Map.of(), null, null);
            int rounds = (int) config.get("n_estimators");
            for (int round = 0; round < rounds; round++) {
                if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0 || Thread.currentThread().isInterrupted()) {
                    throw new OutOfTime("stopped after " + round + " of " + rounds + " boosting rounds: out of time");
                }
                booster.update(fit, round);
            }
            return booster.predict(predict);
        } catch (XGBoostError e) {
            throw new IllegalStateException("XGBoost failed on " + data.name() + " with " + config + ": " + e.getMessage(), e);
        } finally {
            if (booster != null) booster.dispose();
            if (predict != null) predict.dispose();
            if (fit != null) fit.dispose();
        }
    }

    private static Map<String, Object> boosterParams(HpoDataset data, BoosterConfig config) {
        Map<String, Object> params = new HashMap<>();
        switch (data.kind()) {
            case BINARY -> params.put("objective", "binary:logistic");
            case MULTICLASS -> {
                params.put("objective", "multi:softprob");
                params.put("num_class", data.classes().size());
            }
            case REGRESSION -> params.put("objective", "reg:squarederror");
        }
        for (BoosterConfig.Param p : BoosterConfig.PARAMS) {
            if (!p.xgboostName().isEmpty()) params.put(p.xgboostName(), p.integer() ? (Object) (int) config.get(p.name()) : config.get(p.name()));
        }
        params.put("tree_method", "hist");
        params.put("nthread", 1); // deterministic, and one call takes one core
        params.put("seed", 0);
        params.put("verbosity", 0);
        return params;
    }

    private static DMatrix matrix(HpoDataset data, int[] rows, int[] columns) throws XGBoostError {
        float[] flat = new float[rows.length * columns.length];
        for (int i = 0; i < rows.length; i++) {
            float[] row = data.features()[rows[i]];
            for (int j = 0; j < columns.length; j++) flat[i * columns.length + j] = row[columns[j]];
        }
        DMatrix m = new DMatrix(flat, rows.length, columns.length, Float.NaN);
        m.setLabel(labels(data, rows));
        return m;
    }

    private static float[] labels(HpoDataset data, int[] rows) {
        float[] labels = new float[rows.length];
        for (int i = 0; i < rows.length; i++) labels[i] = data.labels()[rows[i]];
        return labels;
    }

    private static int[] pick(int[] rows, List<Integer> positions) {
        return positions.stream().mapToInt(i -> rows[i]).toArray();
    }

    private static int[] rowsOf(Split split, DataSlice slice) {
        int n = (int) Math.round(split.train.length * slice.rows().doubleValue());
        return Arrays.copyOf(split.train, n);
    }

    private Split split(String name) {
        return splits.computeIfAbsent(name, n -> {
            HpoDataset data;
            try {
                data = HpoDataset.read(dir, n);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read dataset " + n + " from " + dir + ": " + e.getMessage(), e);
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < data.rows(); i++) order.add(i);
            Collections.shuffle(order, new Random(SPLIT_SEED));
            int test = (int) Math.round(data.rows() * TEST_SHARE);
            int[] all = order.stream().mapToInt(Integer::intValue).toArray();
            return new Split(data, Arrays.copyOfRange(all, test, all.length), Arrays.copyOfRange(all, 0, test));
        });
    }
}
