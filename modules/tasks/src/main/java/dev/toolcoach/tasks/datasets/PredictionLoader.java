package dev.toolcoach.tasks.datasets;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads model predictions, JSON Lines of {@code {"id": …, "output": "<model text>"}}, keyed by id. */
public final class PredictionLoader {

    /** The outputs by id (in file order), and the lines that could not be used. */
    public record Predictions(Map<String, String> outputs, List<DatasetIssue> malformed) {
    }

    public Predictions load(Path file) {
        Map<String, String> outputs = new LinkedHashMap<>();
        Map<String, String> firstSeen = new HashMap<>();
        List<DatasetIssue> malformed = new ArrayList<>();
        JsonRecords.forEachLine(file, (location, number, node) -> {
            String id = JsonRecords.text(node, "id");
            String output = JsonRecords.text(node, "output");
            if (firstSeen.putIfAbsent(id, location) != null) {
                throw new IllegalArgumentException("second prediction for " + id + " (first at " + firstSeen.get(id) + ")");
            }
            outputs.put(id, output);
        }, malformed);
        return new Predictions(outputs, malformed);
    }
}
