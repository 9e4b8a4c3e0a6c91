package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.JsonLines.SkippedLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A job's own training examples ({@code --dataset FILE}, JSON Lines in the {@link ExampleJsonl} format), which
 * replace the task's training split as the queries the job trains on. A line that is not an example, or repeats
 * an earlier line's id, is skipped and counted with its line number; a file that cannot be read, or has no usable
 * example, is refused before anything runs.
 *
 * @param file     the file read
 * @param examples the usable examples, in file order
 * @param skipped  the lines skipped, with their numbers and why
 */
public record JobDataset(Path file, List<TaskExample> examples, List<SkippedLine> skipped) {
    /** Skipped lines named in a message; {@code config.json} records them all. */
    private static final int NAMED = 5;

    public JobDataset {
        examples = List.copyOf(examples);
        skipped = List.copyOf(skipped);
    }

    /**
     * Reads the file.
     *
     * @throws IllegalArgumentException when it cannot be read or holds no usable example
     */
    public static JobDataset read(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read the dataset " + file + ": no such readable file");
        }
        Set<String> ids = new HashSet<>();
        JsonLines.Read<TaskExample> read = JsonLines.read(file, "examples", line -> {
            TaskExample example = ExampleJsonl.fromJson(line);
            if (!ids.add(example.id())) throw new IllegalArgumentException("its \"id\" repeats an earlier line's");
            return example;
        });
        List<TaskExample> examples = read.items();
        List<SkippedLine> skipped = read.skipped();
        if (examples.isEmpty()) {
            throw new IllegalArgumentException("the dataset " + file + " has no usable example"
                    + (skipped.isEmpty() ? " (it is empty)" : " (" + skipped.size() + " bad lines: " + describe(skipped) + ")"));
        }
        return new JobDataset(file, examples, skipped);
    }

    /** One line naming the skipped lines, e.g. {@code 2 bad lines skipped: line 3 (reason), line 7 (reason)}; empty when none. */
    public String skipSummary() {
        return skipped.isEmpty() ? "" : "dataset " + file + ": " + skipped.size() + " bad line" + (skipped.size() == 1 ? "" : "s")
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
        return Map.of("file", file.toAbsolutePath().toString(), "examples", examples.size(), "skipped_lines",
                skipped.stream().map(s -> Map.of("line", s.lineNumber(), "reason", String.valueOf(s.reason()))).toList());
    }

    private static String describe(List<SkippedLine> skipped) {
        return skipped.stream().limit(NAMED).map(s -> "line " + s.lineNumber() + " (" + s.reason() + ")").collect(Collectors.joining(", "))
                + (skipped.size() > NAMED ? " and " + (skipped.size() - NAMED) + " more" : "");
    }
}
