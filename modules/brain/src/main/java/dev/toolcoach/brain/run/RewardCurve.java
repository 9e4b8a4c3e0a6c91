package dev.toolcoach.brain.run;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The run's {@code reward_curve.png}: per learner step, the accuracy and mean reward of every rollout sampled for it,
 * thin, with their trailing moving mean over {@value #WINDOW} steps drawn bold over them (a step's 64 rollouts make a
 * noisy figure; the trend is what tells), the accuracy of the groups kept for training (dynamic sampling drops the
 * groups whose rollouts all scored alike, most of them all right, so this one stays flat while the policy learns), and
 * the share of sampled groups kept, and the held-out evaluations run while training, as points. Lines written before the
 * sampled figures were recorded draw the kept groups' alone.
 */
public final class RewardCurve {
    /** Steps in the moving mean. */
    static final int WINDOW = 10;

    /** What a comparison draws per step, from the training rollouts. */
    public enum Curve {
        /** The share that solved their example. */
        ACCURACY("training accuracy", StepLine::accuracy),
        /**
         * The mean reward of every rollout sampled for the step, dropped groups included (the kept groups' where a line
         * predates it): ToolBrain's curves, for a task whose reward is graded, such as hpo's.
         */
        REWARD("mean reward of the sampled rollouts", l -> l.sampledMeanReward().isNaN() ? l.meanReward() : l.sampledMeanReward());

        private final String label;
        private final Function<StepLine, Double> value;

        Curve(String label, Function<StepLine, Double> value) {
            this.label = label;
            this.value = value;
        }
    }

    private RewardCurve() {
    }

    public static void write(Path png, String title, List<StepLine> lines, List<HeldOutLine> heldOut) {
        if (lines.isEmpty()) return;
        System.setProperty("java.awt.headless", "true"); // no display on training machines
        XYChart chart = new XYChartBuilder().width(900).height(640).title(title).xAxisTitle("learner step").yAxisTitle("").build();
        // whole steps: XChart's default decimal labels ran together past about 30 steps
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        List<Long> steps = lines.stream().map(StepLine::step).toList();
        List<Double> trainedAccuracy = lines.stream().map(StepLine::accuracy).toList();
        boolean sampledRecorded = lines.stream().anyMatch(l -> !l.sampledAccuracy().isNaN());
        List<Double> reward = lines.stream().map(l -> sampledRecorded ? l.sampledMeanReward() : l.meanReward()).toList();
        List<Double> accuracy = sampledRecorded ? lines.stream().map(StepLine::sampledAccuracy).toList() : trainedAccuracy;
        String of = sampledRecorded ? " of sampled rollouts" : "";
        series(chart, "mean reward" + of, steps, reward, new Color(240, 180, 120), 1f);
        series(chart, "accuracy" + of, steps, accuracy, new Color(150, 180, 235), 1f);
        series(chart, "mean reward" + of + ", mean of " + WINDOW, steps, movingMean(reward, WINDOW), new Color(200, 90, 0), 3f);
        series(chart, "accuracy" + of + ", mean of " + WINDOW, steps, movingMean(accuracy, WINDOW), new Color(20, 60, 170), 3f);
        if (sampledRecorded) {
            series(chart, "accuracy of groups kept for training, mean of " + WINDOW, steps, movingMean(trainedAccuracy, WINDOW),
                    new Color(90, 150, 90), 2f);
        }
        series(chart, "share of sampled groups kept", steps, lines.stream().map(StepLine::informativeFraction).toList(),
                Color.GRAY, 1f);
        if (!heldOut.isEmpty()) {
            XYSeries points = chart.addSeries("held-out accuracy (" + heldOut.get(heldOut.size() - 1).examples() + " test examples)",
                    heldOut.stream().map(HeldOutLine::step).toList(), heldOut.stream().map(HeldOutLine::accuracy).toList());
            points.setMarker(SeriesMarkers.CIRCLE);
            points.setMarkerColor(new Color(170, 20, 40));
            points.setLineColor(new Color(170, 20, 40));
            points.setLineWidth(2f);
        }
        save(chart, png);
    }

    /**
     * Several runs' learning curves in one chart: per run, the training rollouts' accuracy per learner step as its
     * trailing moving mean over {@value #WINDOW} steps (a comparison of recipes or seeds; the raw lines would hide it).
     *
     * @param runs each run's label and its step lines, drawn in this order
     */
    public static void writeComparison(Path png, String title, Map<String, List<StepLine>> runs, Curve curve) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title).xAxisTitle("learner step")
                .yAxisTitle(curve.label + ", mean of " + WINDOW + " steps").build();
        runs.forEach((label, lines) -> {
            if (lines.isEmpty()) return;
            XYSeries series = chart.addSeries(label, lines.stream().map(StepLine::step).toList(),
                    movingMean(lines.stream().map(curve.value).toList(), WINDOW));
            series.setMarker(SeriesMarkers.NONE);
            series.setLineWidth(2f);
        });
        if (chart.getSeriesMap().isEmpty()) throw new IllegalArgumentException("no run has training steps to draw");
        save(chart, png);
    }

    private static void save(XYChart chart, Path png) {
        try {
            String name = png.toString();
            BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    private static void series(XYChart chart, String name, List<Long> x, List<Double> y, Color color, float width) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(color);
        series.setLineWidth(width);
    }

    /** The mean of each value and up to {@code window - 1} before it (NaNs, steps that scored nothing, left out). */
    static List<Double> movingMean(List<Double> values, int window) {
        List<Double> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(values.subList(Math.max(0, i - window + 1), i + 1).stream().filter(v -> !v.isNaN())
                    .mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
        }
        return out;
    }
}
