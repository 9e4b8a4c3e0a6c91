package dev.toolcoach.brain.run;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run's {@code reward_curve.png}: mean reward and accuracy per learner step, thin, with their trailing moving mean
 * over {@value #WINDOW} steps drawn bold over them (a step's 64 rollouts make a noisy figure; the trend is what tells),
 * and the share of informative groups per step.
 */
public final class RewardCurve {
    /** Steps in the moving mean. */
    static final int WINDOW = 10;

    private RewardCurve() {
    }

    public static void write(Path png, String title, List<StepLine> lines) {
        if (lines.isEmpty()) return;
        System.setProperty("java.awt.headless", "true"); // no display on training machines
        XYChart chart = new XYChartBuilder().width(800).height(450).title(title).xAxisTitle("learner step").yAxisTitle("").build();
        List<Long> steps = lines.stream().map(StepLine::step).toList();
        List<Double> reward = lines.stream().map(StepLine::meanReward).toList();
        List<Double> accuracy = lines.stream().map(StepLine::accuracy).toList();
        series(chart, "mean reward", steps, reward, Color.ORANGE, 1f);
        series(chart, "accuracy", steps, accuracy, new Color(120, 160, 230), 1f);
        series(chart, "mean reward, mean of " + WINDOW, steps, movingMean(reward, WINDOW), new Color(200, 90, 0), 3f);
        series(chart, "accuracy, mean of " + WINDOW, steps, movingMean(accuracy, WINDOW), new Color(20, 60, 170), 3f);
        series(chart, "informative groups", steps, lines.stream().map(StepLine::informativeFraction).toList(), Color.GRAY, 1f);
        save(chart, png);
    }

    /**
     * Several runs' learning curves in one chart: per run, the training rollouts' accuracy per learner step as its
     * trailing moving mean over {@value #WINDOW} steps (a comparison of recipes or seeds; the raw lines would hide it).
     *
     * @param runs each run's label and its step lines, drawn in this order
     */
    public static void writeComparison(Path png, String title, Map<String, List<StepLine>> runs) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title).xAxisTitle("learner step")
                .yAxisTitle("training accuracy, mean of " + WINDOW + " steps").build();
        runs.forEach((label, lines) -> {
            if (lines.isEmpty()) return;
            XYSeries series = chart.addSeries(label, lines.stream().map(StepLine::step).toList(),
                    movingMean(lines.stream().map(StepLine::accuracy).toList(), WINDOW));
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
