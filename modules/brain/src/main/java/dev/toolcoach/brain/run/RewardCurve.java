package dev.toolcoach.brain.run;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** The run's {@code reward_curve.png}: mean reward and accuracy per learner step. */
public final class RewardCurve {

    private RewardCurve() {
    }

    public static void write(Path png, String title, List<StepLine> lines) {
        if (lines.isEmpty()) return;
        System.setProperty("java.awt.headless", "true"); // no display on training machines
        XYChart chart = new XYChartBuilder().width(800).height(450).title(title).xAxisTitle("learner step").yAxisTitle("").build();
        List<Long> steps = lines.stream().map(StepLine::step).toList();
        chart.addSeries("mean reward", steps, lines.stream().map(StepLine::meanReward).toList()).setMarker(SeriesMarkers.NONE);
        chart.addSeries("accuracy", steps, lines.stream().map(StepLine::accuracy).toList()).setMarker(SeriesMarkers.NONE);
        try {
            String name = png.toString();
            BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }
}
