package dev.toolcoach.tools.hpo;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A configuration of the gradient-boosted model: a value for some of the tunable {@link #PARAMS}, the rest at their
 * defaults. It is written as {@code name=value} pairs ({@code max_depth=4 learning_rate=0.1}), the one format of the
 * tools' argument and of a task's answer, short enough for a small model to copy. Two configurations that set the same
 * values are equal whatever order or spelling they were written in ({@code 0.10} is {@code 0.1}; a value equal to the
 * default is dropped), so the cache of results keys on what is trained, not on how it was asked.
 *
 * @param values the parameters set to other than their defaults, by name in name order
 */
public record BoosterConfig(Map<String, BigDecimal> values) {

    /**
     * One tunable parameter: its XGBoost name (empty for {@code n_estimators}, the number of boosting rounds rather
     * than a booster parameter), its range (inclusive) and XGBoost's default.
     */
    public record Param(String name, String xgboostName, boolean integer, double min, double max, double byDefault,
                        String description) {
        /** The value as the tools and answers write it: an integer plainly, a real number without trailing zeros. */
        String format(BigDecimal value) {
            return value.stripTrailingZeros().toPlainString();
        }

        /** {@code max_depth 1-12 (default 6)}: what {@code list_params} says of it. */
        public String summary() {
            return name + " " + plain(min) + "-" + plain(max) + " (default " + plain(byDefault) + ")";
        }
    }

    /**
     * What can be tuned, with XGBoost's own defaults (100 trees, as its scikit-learn wrapper trains). Ranges are wide
     * enough for any sensible setting and narrow enough that one call stays within seconds on these datasets.
     */
    public static final List<Param> PARAMS = List.of(
            new Param("n_estimators", "", true, 1, 500, 100, "boosting rounds (trees per class)"),
            new Param("learning_rate", "eta", false, 0.001, 1, 0.3, "shrinkage of each tree's contribution"),
            new Param("max_depth", "max_depth", true, 1, 12, 6, "deepest a tree may grow"),
            new Param("min_child_weight", "min_child_weight", false, 0, 50, 1, "least hessian weight in a leaf"),
            new Param("subsample", "subsample", false, 0.1, 1, 1, "share of rows each tree samples"),
            new Param("colsample_bytree", "colsample_bytree", false, 0.1, 1, 1, "share of features each tree samples"),
            new Param("reg_lambda", "lambda", false, 0, 100, 1, "L2 penalty on leaf weights"),
            new Param("reg_alpha", "alpha", false, 0, 100, 0, "L1 penalty on leaf weights"),
            new Param("gamma", "gamma", false, 0, 20, 0, "least loss reduction to split a leaf"));

    private static final Map<String, Param> BY_NAME = PARAMS.stream()
            .collect(Collectors.toMap(Param::name, p -> p, (a, b) -> a, LinkedHashMap::new));

    private static final Pattern PAIR = Pattern.compile("\"?([A-Za-z_]+)\"?\\s*[=:]\\s*\"?([^\\s,;\"}]+)");

    public BoosterConfig {
        values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /** XGBoost's defaults: nothing set. */
    public static BoosterConfig defaults() {
        return new BoosterConfig(Map.of());
    }

    /**
     * Reads {@code name=value} pairs separated by spaces, commas or semicolons (an empty text or {@code defaults} is
     * the defaults).
     *
     * @throws IllegalArgumentException one line naming the first unknown parameter, value that is not a number of the
     *                                  parameter's type, or value out of its range
     */
    public static BoosterConfig parse(String text) {
        Map<String, BigDecimal> values = new TreeMap<>();
        String stripped = text == null ? "" : text.strip();
        if (stripped.isEmpty() || stripped.equalsIgnoreCase("defaults")) return defaults();
        for (String pair : stripped.split("[\\s,;]+")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("'" + pair + "' is not name=value, e.g. max_depth=4");
            String name = pair.substring(0, eq).strip();
            Param param = BY_NAME.get(name);
            if (param == null) throw new IllegalArgumentException("unknown parameter '" + name + "'; parameters: " + BY_NAME.keySet());
            if (values.containsKey(name)) throw new IllegalArgumentException("parameter '" + name + "' is given twice");
            BigDecimal value = value(param, pair.substring(eq + 1).strip());
            if (value.compareTo(BigDecimal.valueOf(param.byDefault())) != 0) values.put(name, value.stripTrailingZeros());
        }
        return new BoosterConfig(values);
    }

    private static BigDecimal value(Param param, String text) {
        BigDecimal value;
        try {
            value = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(param.name() + " must be " + (param.integer() ? "an integer" : "a number")
                    + ", got '" + text + "'");
        }
        if (param.integer() && value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(param.name() + " must be an integer, got " + text);
        }
        if (value.doubleValue() < param.min() || value.doubleValue() > param.max()) {
            throw new IllegalArgumentException(param.name() + " must be between " + plain(param.min()) + " and "
                    + plain(param.max()) + ", got " + text);
        }
        return value;
    }

    /**
     * The configuration an agent's final answer writes: its {@code name=value} (or JSON's {@code "name": value}) pairs,
     * or {@code defaults}; empty when it writes none or one that does not parse.
     */
    public static Optional<BoosterConfig> find(String text) {
        if (text.strip().equalsIgnoreCase("defaults")) return Optional.of(defaults());
        Matcher m = PAIR.matcher(text);
        StringBuilder pairs = new StringBuilder();
        while (m.find()) pairs.append(m.group(1)).append('=').append(m.group(2)).append(' ');
        if (pairs.isEmpty()) return Optional.empty();
        try {
            return Optional.of(parse(pairs.toString()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The parameter's value here: the one set, else its default. */
    public double get(String name) {
        Param param = BY_NAME.get(name);
        if (param == null) throw new IllegalArgumentException("unknown parameter '" + name + "'");
        BigDecimal v = values.get(name);
        return v == null ? param.byDefault() : v.doubleValue();
    }

    /** This configuration with {@code name} set to {@code value} (rounded to the parameter's type, kept in range). */
    public BoosterConfig with(String name, double value) {
        Param param = BY_NAME.get(name);
        double clamped = Math.max(param.min(), Math.min(param.max(), param.integer() ? Math.rint(value) : value));
        BigDecimal decimal = param.integer() ? BigDecimal.valueOf((long) clamped) : BigDecimal.valueOf(clamped);
        Map<String, BigDecimal> more = new TreeMap<>(values);
        if (clamped == param.byDefault()) more.remove(name);
        else more.put(name, decimal.stripTrailingZeros());
        return new BoosterConfig(more);
    }

    public static Param param(String name) {
        return BY_NAME.get(name);
    }

    /** {@code name=value} pairs in the order of {@link #PARAMS}, or {@code defaults}. */
    public String text() {
        if (values.isEmpty()) return "defaults";
        return PARAMS.stream().filter(p -> values.containsKey(p.name()))
                .map(p -> p.name() + "=" + p.format(values.get(p.name()))).collect(Collectors.joining(" "));
    }

    /**
     * A draw of random search over the usual ranges a practitioner searches (log scale for rates and penalties), the
     * baseline a tuner must beat with the same number of calls.
     */
    public static BoosterConfig random(Random random) {
        BoosterConfig c = defaults()
                .with("n_estimators", 50 + random.nextInt(251))
                .with("learning_rate", round(logUniform(random, 0.01, 0.5)))
                .with("max_depth", 2 + random.nextInt(7))
                .with("min_child_weight", round(logUniform(random, 0.5, 10)))
                .with("subsample", round(0.5 + 0.5 * random.nextDouble()))
                .with("colsample_bytree", round(0.5 + 0.5 * random.nextDouble()))
                .with("reg_lambda", round(logUniform(random, 0.1, 10)));
        return c.with("gamma", round(random.nextDouble()));
    }

    private static double logUniform(Random random, double lo, double hi) {
        return Math.exp(Math.log(lo) + random.nextDouble() * (Math.log(hi) - Math.log(lo)));
    }

    /** Two significant digits: what a person writes, and what keeps a configuration short. */
    private static double round(double v) {
        return new BigDecimal(v).round(new MathContext(2)).doubleValue();
    }

    private static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return text();
    }
}
