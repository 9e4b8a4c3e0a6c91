package dev.toolcoach.brain.run;

import dev.toolcoach.trace.tooluse.ToolStats;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** TILE's tool-use chart: per context and tool, calls that succeeded and failed, and how many were retries or repeats. */
public final class ToolUseChart {

    private ToolUseChart() {
    }

    public static void write(Path png, String title, List<ToolStats> stats) {
        if (stats.isEmpty()) throw new IllegalArgumentException("no tool calls to chart");
        System.setProperty("java.awt.headless", "true"); // no display on training machines
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(800, 90 * stats.size())).height(500).title(title)
                .xAxisTitle("context / tool").yAxisTitle("calls").build();
        chart.getStyler().setXAxisLabelRotation(30);
        List<String> labels = stats.stream().map(s -> ToolStats.ALL_CONTEXTS.equals(s.context()) ? s.tool()
                : s.context() + " / " + s.tool()).toList();
        chart.addSeries("succeeded", labels, stats.stream().map(s -> (Number) s.successes()).toList());
        chart.addSeries("failed", labels, stats.stream().map(s -> (Number) s.failed()).toList());
        chart.addSeries("retries", labels, stats.stream().map(s -> (Number) s.retries()).toList());
        chart.addSeries("repeats (overuse)", labels, stats.stream().map(s -> (Number) s.repeats()).toList());
        try {
            String name = png.toString();
            BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }
}
