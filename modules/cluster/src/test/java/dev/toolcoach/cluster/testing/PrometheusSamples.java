package dev.toolcoach.cluster.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses Prometheus text exposition into {@code name{labels} -> value}, failing on any line that is
 * not a comment, blank, or a well-formed sample.
 */
public final class PrometheusSamples {

    private PrometheusSamples() {
    }

    public static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        int number = 0;
        for (String line : text.split("\n")) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int split = line.lastIndexOf(' ');
            String series = line.substring(0, Math.max(split, 0));
            if (split <= 0 || !series.matches("[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*})?")) {
                throw new IllegalArgumentException("line " + number + " is not a sample: " + line);
            }
            samples.put(series, Double.parseDouble(line.substring(split + 1)));
        }
        return samples;
    }
}
