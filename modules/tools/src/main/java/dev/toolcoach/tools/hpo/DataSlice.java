package dev.toolcoach.tools.hpo;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * The data one query tunes on: a dataset's training part, or the first {@code rows} share of it, with all its features
 * or some. Written canonically ({@code rows} without trailing zeros, {@code features} as sorted ranges such as
 * {@code 0-9,12}), so equal slices are equal records whatever way they were asked for.
 *
 * @param dataset  one of {@link HpoDataset#NAMES}
 * @param rows     the share of the training part used, 0.1 to 1
 * @param features {@code all}, or the feature columns used as ranges of 0-based indices
 */
public record DataSlice(String dataset, BigDecimal rows, String features) {

    public static final String ALL = "all";

    public DataSlice {
        Objects.requireNonNull(dataset, "dataset");
        if (!HpoDataset.NAMES.contains(dataset)) {
            throw new IllegalArgumentException("no dataset named '" + dataset + "'; datasets: " + HpoDataset.NAMES);
        }
        if (rows.compareTo(new BigDecimal("0.1")) < 0 || rows.compareTo(BigDecimal.ONE) > 0) {
            throw new IllegalArgumentException("rows must be a share between 0.1 and 1, got " + rows.toPlainString());
        }
        rows = new BigDecimal(rows.stripTrailingZeros().toPlainString());
        features = features == null || features.isBlank() || features.strip().equals(ALL) ? ALL : ranges(indices(features));
    }

    public static DataSlice whole(String dataset) {
        return new DataSlice(dataset, BigDecimal.ONE, ALL);
    }

    public DataSlice withRows(double share) {
        return new DataSlice(dataset, BigDecimal.valueOf(share), features);
    }

    public DataSlice withFeatures(String columns) {
        return new DataSlice(dataset, rows, columns);
    }

    /** The columns used, given how many the dataset has; one line naming an index out of range. */
    public int[] columns(int featureCount) {
        if (features.equals(ALL)) return IntStream.range(0, featureCount).toArray();
        int[] columns = indices(features).stream().mapToInt(Integer::intValue).toArray();
        if (columns[columns.length - 1] >= featureCount) {
            throw new IllegalArgumentException("feature " + columns[columns.length - 1] + " does not exist: " + dataset
                    + " has features 0-" + (featureCount - 1));
        }
        return columns;
    }

    /** {@code 0-9,12} as the indices it names, sorted; one line for anything else. */
    private static TreeSet<Integer> indices(String spec) {
        TreeSet<Integer> indices = new TreeSet<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            try {
                int dash = p.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).strip());
                int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).strip());
                if (from < 0 || to < from) throw new NumberFormatException();
                for (int i = from; i <= to; i++) indices.add(i);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("features must be 'all' or column indices and ranges such as '0-9,12', got '" + spec + "'");
            }
        }
        return indices;
    }

    private static String ranges(TreeSet<Integer> indices) {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer previous = null;
        for (int i : indices) {
            if (start != null && i == previous + 1) {
                previous = i;
                continue;
            }
            if (start != null) parts.add(start.equals(previous) ? "" + start : start + "-" + previous);
            start = i;
            previous = i;
        }
        parts.add(start.equals(previous) ? "" + start : start + "-" + previous);
        return String.join(",", parts);
    }
}
