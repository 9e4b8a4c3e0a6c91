package dev.toolcoach.tools.hpo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A score of predictions against labels. Predictions are a row per example: the probability of class 1 (binary), one
 * probability per class (multi-class) or the predicted value (regression).
 */
public enum HpoMetric {
    ACCURACY(true), AUC(true), LOGLOSS(false), RMSE(false), MAE(false);

    private final boolean higherIsBetter;

    HpoMetric(boolean higherIsBetter) {
        this.higherIsBetter = higherIsBetter;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** The score with higher always better (a loss negated), what a search compares. */
    public double oriented(double score) {
        return higherIsBetter ? score : -score;
    }

    /** The metrics that apply to a kind of dataset, the conventional one first. */
    public static List<HpoMetric> of(HpoDataset.Kind kind) {
        return switch (kind) {
            case BINARY -> List.of(AUC, ACCURACY, LOGLOSS);
            case MULTICLASS -> List.of(ACCURACY, LOGLOSS);
            case REGRESSION -> List.of(RMSE, MAE);
        };
    }

    /** The metric named {@code label} for that kind of dataset; a one-line error naming the ones that apply. */
    public static HpoMetric parse(String label, HpoDataset.Kind kind) {
        for (HpoMetric m : of(kind)) {
            if (m.label().equals(label.strip().toLowerCase(Locale.ROOT))) return m;
        }
        throw new IllegalArgumentException("metric '" + label + "' does not apply to " + kind.text() + "; use one of "
                + of(kind).stream().map(HpoMetric::label).toList());
    }

    public double score(float[][] predictions, float[] labels) {
        return switch (this) {
            case ACCURACY -> accuracy(predictions, labels);
            case AUC -> auc(predictions, labels);
            case LOGLOSS -> logloss(predictions, labels);
            case RMSE -> Math.sqrt(Arrays.stream(errors(predictions, labels)).map(e -> e * e).average().orElseThrow());
            case MAE -> Arrays.stream(errors(predictions, labels)).map(Math::abs).average().orElseThrow();
        };
    }

    private static double accuracy(float[][] predictions, float[] labels) {
        int right = 0;
        for (int i = 0; i < labels.length; i++) {
            if (predictedClass(predictions[i]) == (int) labels[i]) right++;
        }
        return (double) right / labels.length;
    }

    private static int predictedClass(float[] row) {
        if (row.length == 1) return row[0] >= 0.5f ? 1 : 0;
        int best = 0;
        for (int c = 1; c < row.length; c++) if (row[c] > row[best]) best = c;
        return best;
    }

    /** The Mann-Whitney statistic with ties counted half: the chance a positive outranks a negative. */
    private static double auc(float[][] predictions, float[] labels) {
        long positives = 0;
        double ranksOfPositives = 0;
        Integer[] order = new Integer[labels.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Float.compare(predictions[a][0], predictions[b][0]));
        for (int start = 0; start < order.length; ) {
            int end = start;
            while (end + 1 < order.length && predictions[order[end + 1]][0] == predictions[order[start]][0]) end++;
            double rank = (start + end) / 2.0 + 1;
            for (int k = start; k <= end; k++) {
                if (labels[order[k]] == 1) {
                    positives++;
                    ranksOfPositives += rank;
                }
            }
            start = end + 1;
        }
        long negatives = labels.length - positives;
        if (positives == 0 || negatives == 0) return 0.5;
        return (ranksOfPositives - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }

    private static double logloss(float[][] predictions, float[] labels) {
        double sum = 0;
        for (int i = 0; i < labels.length; i++) {
            int label = (int) labels[i];
            double p = predictions[i].length == 1 ? (label == 1 ? predictions[i][0] : 1 - predictions[i][0]) : predictions[i][label];
            sum -= Math.log(Math.min(1 - 1e-15, Math.max(1e-15, p)));
        }
        return sum / labels.length;
    }

    private static double[] errors(float[][] predictions, float[] labels) {
        double[] errors = new double[labels.length];
        for (int i = 0; i < labels.length; i++) errors[i] = predictions[i][0] - labels[i];
        return errors;
    }
}
