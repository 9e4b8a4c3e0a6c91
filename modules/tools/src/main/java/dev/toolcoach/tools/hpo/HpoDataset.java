package dev.toolcoach.tools.hpo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;

/**
 * One of the tabular datasets of {@code ../shared/data/hpo}, read as scikit-learn ships them.
 *
 * @param name     the name the tools and queries use
 * @param kind     what is predicted
 * @param classes  the class names (empty for regression)
 * @param features one row of feature values per example
 * @param labels   the class index, or the target value, per example
 */
public record HpoDataset(String name, Kind kind, List<String> classes, float[][] features, float[] labels) {

    public static final String BREAST_CANCER = "breast_cancer";
    public static final String WINE = "wine";
    public static final String DIGITS = "digits";
    public static final String DIABETES = "diabetes";
    public static final List<String> NAMES = List.of(BREAST_CANCER, WINE, DIGITS, DIABETES);

    /** What a dataset's label is. */
    public enum Kind {
        BINARY("binary classification"), MULTICLASS("multi-class classification"), REGRESSION("regression");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public HpoDataset {
        classes = List.copyOf(classes);
        if (features.length != labels.length || features.length == 0) {
            throw new IllegalArgumentException("dataset " + name + " has " + features.length + " rows and " + labels.length + " labels");
        }
    }

    public int rows() {
        return features.length;
    }

    public int featureCount() {
        return features[0].length;
    }

    /** The dataset of that name under {@code dir} (the shared data's {@code hpo/} folder). */
    public static HpoDataset read(Path dir, String name) throws IOException {
        return switch (name) {
            case BREAST_CANCER -> withHeader(name, dir.resolve("breast_cancer.csv"));
            case WINE -> withHeader(name, dir.resolve("wine_data.csv"));
            case DIGITS -> digits(dir.resolve("digits.csv.gz"));
            case DIABETES -> diabetes(dir.resolve("diabetes_data_raw.csv.gz"), dir.resolve("diabetes_target.csv.gz"));
            default -> throw new IllegalArgumentException("no dataset named '" + name + "'; datasets: " + NAMES);
        };
    }

    /** {@code rows,features,class names...}, then one example a line with the class index last. */
    private static HpoDataset withHeader(String name, Path file) throws IOException {
        List<String> lines = lines(file);
        String[] header = lines.get(0).split(",");
        int rows = Integer.parseInt(header[0].strip());
        List<String> classes = Arrays.stream(header, 2, header.length).map(String::strip).toList();
        Table table = table(file, lines.subList(1, lines.size()));
        if (table.features.length != rows) throw new IOException(file + " declares " + rows + " rows but holds " + table.features.length);
        return new HpoDataset(name, classes.size() == 2 ? Kind.BINARY : Kind.MULTICLASS, classes, table.features, table.last);
    }

    private static HpoDataset digits(Path file) throws IOException {
        Table table = table(file, lines(file));
        List<String> classes = IntStream.range(0, 10).mapToObj(String::valueOf).toList();
        return new HpoDataset(DIGITS, Kind.MULTICLASS, classes, table.features, table.last);
    }

    /** Features and targets in two space-separated files, one row a line in the same order. */
    private static HpoDataset diabetes(Path featureFile, Path targetFile) throws IOException {
        List<String> rows = lines(featureFile);
        List<String> targets = lines(targetFile);
        if (rows.size() != targets.size()) {
            throw new IOException(featureFile + " has " + rows.size() + " rows but " + targetFile + " " + targets.size());
        }
        float[][] features = new float[rows.size()][];
        float[] labels = new float[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            features[i] = numbers(featureFile, i, rows.get(i).strip().split("\\s+"));
            labels[i] = Float.parseFloat(targets.get(i).strip());
        }
        return new HpoDataset(DIABETES, Kind.REGRESSION, List.of(), features, labels);
    }

    private record Table(float[][] features, float[] last) {
    }

    /** Comma-separated rows whose last value is the label. */
    private static Table table(Path file, List<String> lines) throws IOException {
        float[][] features = new float[lines.size()][];
        float[] last = new float[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            float[] values = numbers(file, i, lines.get(i).split(","));
            features[i] = Arrays.copyOf(values, values.length - 1);
            last[i] = values[values.length - 1];
        }
        return new Table(features, last);
    }

    private static float[] numbers(Path file, int line, String[] cells) throws IOException {
        float[] values = new float[cells.length];
        for (int j = 0; j < cells.length; j++) {
            try {
                values[j] = Float.parseFloat(cells[j].strip());
            } catch (NumberFormatException e) {
                throw new IOException(file + " row " + (line + 1) + " cell " + (j + 1) + " is not a number: '" + cells[j] + "'");
            }
        }
        return values;
    }

    private static List<String> lines(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) lines.add(line);
            }
            return lines;
        }
    }
}
