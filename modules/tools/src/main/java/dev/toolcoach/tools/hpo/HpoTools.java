package dev.toolcoach.tools.hpo;

import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code hpo} suite: describe a dataset, list the tunable parameters, and cross-validate a configuration of
 * XGBoost on a dataset's training part. Answers are one short line each, as a small model's context needs. A bad
 * argument (unknown dataset, metric or parameter, a value of the wrong type or out of range) is a one-line error the
 * model reads; a call that cannot finish within its time stops boosting and says so.
 */
public final class HpoTools {

    public static final String SUITE = "hpo";
    /** A call's own limit: within a scratch recipe's 10 s tool timeout, so the tool answers before it is cut off. */
    public static final Duration CALL_LIMIT = Duration.ofSeconds(8);

    private final HpoLab lab;
    private final Duration callLimit;

    public HpoTools(HpoLab lab, Duration callLimit) {
        this.lab = lab;
        this.callLimit = callLimit;
    }

    public static ToolSuite suite(HpoLab lab) {
        return suite(lab, CALL_LIMIT);
    }

    public static ToolSuite suite(HpoLab lab, Duration callLimit) {
        return ToolSuite.builder(SUITE).addAnnotated(new HpoTools(lab, callLimit)).build();
    }

    @ToolMethod(name = "describe_dataset", description = "Rows, features, what is predicted and the metrics of a dataset's"
            + " training part (the part the tools see).")
    public ToolOutput describeDataset(@Param("breast_cancer, wine, digits or diabetes") String dataset) throws ToolException {
        HpoDataset data = dataset(dataset);
        DataSlice whole = DataSlice.whole(data.name());
        String target = data.kind() == HpoDataset.Kind.REGRESSION ? "a number" : data.classes().size() + " classes";
        List<String> metrics = HpoMetric.of(data.kind()).stream().map(HpoMetric::label).toList();
        int rows = lab.trainingRows(whole);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("dataset", data.name());
        structured.put("rows", rows);
        structured.put("features", data.featureCount());
        structured.put("task", data.kind().text());
        structured.put("metrics", metrics);
        return new ToolOutput("%s: %d rows, features 0-%d, %s (%s); metrics %s".formatted(data.name(), rows,
                data.featureCount() - 1, data.kind().text(), target, String.join(", ", metrics)), structured);
    }

    @ToolMethod(name = "list_params", description = "The tunable parameters: name, range and default.")
    public ToolOutput listParams() {
        String text = BoosterConfig.PARAMS.stream().map(BoosterConfig.Param::summary).collect(Collectors.joining("; "));
        return new ToolOutput(text, BoosterConfig.PARAMS.stream().map(p -> Map.of("name", p.name(), "min", p.min(),
                "max", p.max(), "default", p.byDefault(), "integer", p.integer(), "description", p.description())).toList());
    }

    @ToolMethod(name = "cross_validate", description = "Trains XGBoost with a configuration and returns its "
            + HpoLab.FOLDS + "-fold cross-validated score on the dataset's training part.")
    public ToolOutput crossValidate(
            @Param("breast_cancer, wine, digits or diabetes") String dataset,
            @Param("parameters as name=value pairs, e.g. 'max_depth=4 learning_rate=0.1'; the rest keep their defaults")
            String config,
            @Param(value = "the score: auc, accuracy or logloss (classes), rmse or mae (regression); default the first",
                    required = false) String metric,
            @Param(value = "share of the training rows to use, 0.1-1 (default 1)", required = false) Double rows,
            @Param(value = "feature columns to use, e.g. '0-9,12' (default all)", required = false) String features)
            throws ToolException {
        long deadline = System.nanoTime() + callLimit.toNanos();
        HpoDataset data = dataset(dataset);
        try {
            HpoMetric m = metric == null ? HpoMetric.of(data.kind()).get(0) : HpoMetric.parse(metric, data.kind());
            DataSlice slice = new DataSlice(data.name(), BigDecimal.valueOf(rows == null ? 1 : rows), features);
            BoosterConfig parsed = BoosterConfig.parse(config);
            double score = lab.crossValidate(slice, parsed, deadline).get(m);
            Map<String, Object> structured = new LinkedHashMap<>();
            structured.put("metric", m.label());
            structured.put("score", score);
            structured.put("config", parsed.text());
            return new ToolOutput("cv %s %s".formatted(m.label(), String.format(Locale.ROOT, "%.4f", score)), structured);
        } catch (IllegalArgumentException e) {
            throw new ToolException(e.getMessage());
        } catch (HpoLab.OutOfTime e) {
            throw new ToolException(e.getMessage() + " (limit " + callLimit.toMillis() + " ms); try fewer n_estimators or a smaller max_depth");
        }
    }

    private HpoDataset dataset(String name) throws ToolException {
        if (!HpoDataset.NAMES.contains(name)) {
            throw new ToolException("no dataset named '" + name + "'; datasets: " + String.join(", ", HpoDataset.NAMES));
        }
        return lab.dataset(name);
    }
}
