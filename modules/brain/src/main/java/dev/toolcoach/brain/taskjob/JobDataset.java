package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.tasks.FunctionCallingTask;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import dev.toolcoach.tasks.datasets.GlaiveLoader;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.tasks.datasets.TaskExampleCalls;
import dev.toolcoach.tasks.datasets.XlamLoader;
import dev.toolcoach.trace.JsonLines;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A job's own examples ({@code --dataset FILE}, {@code dataset} of a request) in one of the layouts users have:
 * ToolCoach's JSON Lines ({@link ExampleJsonl}), an xLAM JSON array of {@code {query, tools, answers}}, or a
 * ShareGPT/Glaive JSON array of {@code {conversations, tools}}. With a task named they replace its training split (JSON
 * Lines only: the calling layouts carry their own gold); without one they are the task ({@link #asTask}). A record that
 * is not an example, repeats an earlier id, or whose gold calls do not fit its tools is skipped and counted with where
 * it is; a file that cannot be read, or has no usable example, is refused before anything runs.
 *
 * @param file     the file read
 * @param layout   the layout it is in
 * @param examples the usable examples, in file order
 * @param calling  the examples as function-calling examples, when every one names gold calls over the tools it offers
 * @param skipped  the records skipped, with where they are and why
 */
public record JobDataset(Path file, Layout layout, List<TaskExample> examples, Optional<LoadResult<CallingExample>> calling,
                         List<DatasetIssue> skipped) {
    /** Skipped records named in a message; {@code config.json} records them all. */
    private static final int NAMED = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The layouts a dataset file may be in. */
    public enum Layout {
        /** ToolCoach's JSON Lines: one example a line. */
        TOOLCOACH,
        /** xLAM: one JSON array of {@code {query, tools, answers}}. */
        XLAM,
        /** ShareGPT as Glaive writes it: one JSON array of {@code {conversations: [{from, value}], tools}}. */
        SHAREGPT;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public JobDataset {
        examples = List.copyOf(examples);
        skipped = List.copyOf(skipped);
    }

    /**
     * Reads the file in the layout its content shows.
     *
     * @throws IllegalArgumentException when it cannot be read, is in no known layout, or holds no usable example
     */
    public static JobDataset read(Path file) {
        return read(file, "");
    }

    /**
     * As {@link #read(Path)}, the calling layouts' examples numbered under {@code idPrefix} (e.g. {@code test_xlam_3}), so
     * a second file's examples (a given test split) keep ids of their own.
     */
    static JobDataset read(Path file, String idPrefix) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read the dataset " + file + ": no such readable file");
        }
        JobDataset dataset;
        try {
            dataset = switch (layout(file)) {
                case TOOLCOACH -> jsonLines(file);
                case XLAM -> calling(file, Layout.XLAM, new XlamLoader().load(file, idPrefix + "xlam"));
                case SHAREGPT -> calling(file, Layout.SHAREGPT, new GlaiveLoader().load(file, idPrefix + "sharegpt"));
            };
        } catch (DatasetException e) {
            throw new IllegalArgumentException("the dataset " + file + ": " + e.getMessage(), e);
        }
        if (dataset.examples.isEmpty()) {
            throw new IllegalArgumentException("the dataset " + file + " has no usable example" + (dataset.skipped.isEmpty()
                    ? " (it is empty)" : " (" + dataset.skipped.size() + " bad records: " + describe(dataset.skipped) + ")"));
        }
        return dataset;
    }

    /** A file whose first character opens an array is one of the calling layouts, told apart by its first item's fields. */
    private static Layout layout(Path file) {
        try (InputStream in = Files.newInputStream(file); JsonParser parser = JSON.getFactory().createParser(in)) {
            JsonToken first;
            try {
                first = parser.nextToken();
            } catch (IOException e) {
                return Layout.TOOLCOACH; // not one JSON value: lines, each checked by itself
            }
            if (first != JsonToken.START_ARRAY) return Layout.TOOLCOACH;
            JsonNode item;
            try {
                item = parser.nextToken() == JsonToken.START_OBJECT ? parser.readValueAsTree() : null;
            } catch (IOException e) {
                return Layout.TOOLCOACH; // a broken first item: read as lines, each bad one counted
            }
            if (item != null && item.has("answers") && item.has("query")) return Layout.XLAM;
            if (item != null && item.has("conversations")) return Layout.SHAREGPT;
            throw new IllegalArgumentException("the dataset " + file + " is a JSON array whose first item is neither xLAM "
                    + "({query, tools, answers}) nor ShareGPT/Glaive ({conversations, tools})");
        } catch (IOException e) {
            throw new IllegalArgumentException("the dataset " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static JobDataset jsonLines(Path file) {
        Set<String> ids = new HashSet<>();
        JsonLines.Read<TaskExample> read = JsonLines.read(file, "examples", line -> {
            TaskExample example = ExampleJsonl.fromJson(line);
            if (!ids.add(example.id())) throw new IllegalArgumentException("its \"id\" repeats an earlier line's");
            return example;
        });
        List<DatasetIssue> skipped = new ArrayList<>(read.skipped().stream()
                .map(s -> new DatasetIssue("line " + s.lineNumber(), String.valueOf(s.reason()))).toList());
        List<TaskExample> examples = read.items();
        if (examples.isEmpty() || !examples.stream().allMatch(TaskExampleCalls::hasGoldCalls)) {
            return new JobDataset(file, Layout.TOOLCOACH, examples, Optional.empty(), skipped);
        }
        LoadResult<CallingExample> calls = TaskExampleCalls.of(file.getFileName().toString(), examples);
        skipped.addAll(calls.malformed());
        skipped.addAll(calls.filtered());
        return new JobDataset(file, Layout.TOOLCOACH, FunctionCallingTask.examples(calls, metadata(examples)), Optional.of(calls), skipped);
    }

    private static JobDataset calling(Path file, Layout layout, LoadResult<CallingExample> calls) {
        return new JobDataset(file, layout, FunctionCallingTask.examples(calls, Map.of()), Optional.of(calls),
                Stream.concat(calls.malformed().stream(), calls.filtered().stream()).toList());
    }

    /**
     * The dataset as a task of its own, named after its file: a function-calling task (Tool-N1's call-match reward on the
     * first reply) when its examples name gold calls, else a task of answers matched without regard to case, spacing and
     * punctuation. Its examples offer their own tools, which the agent sees but no tool node runs.
     */
    public Task asTask() {
        String name = taskName(file);
        return calling.<Task>map(calls -> new FunctionCallingTask(name, calls, metadata(examples)))
                .orElseGet(() -> new SimpleTask(name, List.of(), examples, AnswerReward.exact()));
    }

    /**
     * This dataset and {@code test} as one task's examples (a reward finds either's by id), named after this file;
     * {@code test}'s examples are then the task's test split, this file's its training examples.
     *
     * @throws IllegalArgumentException when the two are not of one kind (gold calls, or answers) or share an id
     */
    JobDataset withTest(JobDataset test) {
        if (calling.isPresent() != test.calling.isPresent()) {
            throw new IllegalArgumentException("the test dataset " + test.file + (test.calling.isPresent() ? " names gold calls and "
                    : " has answers only and ") + file + (calling.isPresent() ? " names gold calls" : " has answers only")
                    + ": the two must be of one kind");
        }
        Set<String> ids = examples.stream().map(TaskExample::id).collect(Collectors.toSet());
        test.examples.stream().map(TaskExample::id).filter(ids::contains).findFirst().ifPresent(id -> {
            throw new IllegalArgumentException("the test dataset " + test.file + " has an example with id '" + id
                    + "', as the training dataset does: a test example must not be a training one");
        });
        Optional<LoadResult<CallingExample>> both = calling.map(c -> new LoadResult<>(c.source(),
                Stream.concat(c.items().stream(), test.calling.orElseThrow().items().stream()).toList(), c.malformed(), c.filtered()));
        return new JobDataset(file, layout, Stream.concat(examples.stream(), test.examples.stream()).toList(), both, skipped);
    }

    /** The task's name: the file's name without its extension, as a run name may spell it. */
    static String taskName(Path file) {
        String stem = file.getFileName().toString().replaceFirst("\\.[^.]*$", "").replaceAll("[^A-Za-z0-9._-]", "_");
        return stem.isEmpty() || !Character.isLetterOrDigit(stem.charAt(0)) ? "dataset" + stem : stem;
    }

    /** Each example's fields by its id: a line's metadata, which rewards read. */
    private static Map<String, Map<String, Object>> metadata(List<TaskExample> examples) {
        return examples.stream().collect(Collectors.toMap(TaskExample::id, TaskExample::gold));
    }

    /** One line naming the skipped records, e.g. {@code 2 bad records skipped: line 3 (reason), line 7 (reason)}; empty when none. */
    public String skipSummary() {
        return skipped.isEmpty() ? "" : "dataset " + file + ": " + skipped.size() + " bad record" + (skipped.size() == 1 ? "" : "s")
                + " skipped: " + describe(skipped);
    }

    /** The task's examples and the dataset's (a dataset example replaces a task example of the same id): what rewards look up. */
    public List<TaskExample> withTaskExamples(List<TaskExample> taskExamples) {
        Map<String, TaskExample> byId = new LinkedHashMap<>();
        taskExamples.forEach(e -> byId.put(e.id(), e));
        examples.forEach(e -> byId.put(e.id(), e));
        return List.copyOf(byId.values());
    }

    /** What the run's {@code config.json} records of it. */
    public Map<String, Object> record() {
        return Map.of("file", file.toAbsolutePath().toString(), "layout", layout.label(), "examples", examples.size(),
                "skipped", skipped.stream().map(s -> Map.of("where", s.location(), "reason", String.valueOf(s.reason()))).toList());
    }

    private static String describe(List<DatasetIssue> skipped) {
        return skipped.stream().limit(NAMED).map(s -> s.location() + " (" + s.reason() + ")").collect(Collectors.joining(", "))
                + (skipped.size() > NAMED ? " and " + (skipped.size() - NAMED) + " more" : "");
    }
}
