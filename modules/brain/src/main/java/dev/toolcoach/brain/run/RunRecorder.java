package dev.toolcoach.brain.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.tooluse.ToolUse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Records a training run as it goes: one {@code metrics.jsonl} line per learner step and every scored
 * trace, its reward and job step ({@value Trace#STEP_KEY}) in the metadata, in {@code traces.jsonl}, and the traces' tool
 * calls as TILE's tool-use records ({@code tool_use.jsonl}, context: the task), and the held-out evaluations run while
 * training ({@value HeldOutLine#FILE}) (all appended, so a resumed run continues them). A run resumed from a checkpoint older than its last recorded step (the node died between a step and its
 * checkpoint) redoes the steps after the checkpoint: their earlier records are removed when the first redone step
 * arrives, so each step and each trained rollout is recorded once. A line a crash left half written at the end of
 * either file is cut off when the recorder opens the folder (counted and logged), and every append is synced. Called
 * on the learner's thread; keeps the step lines for the reward curve and progress display.
 */
public final class RunRecorder implements Consumer<StepReport> {
    private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path metrics;
    private final Path traces;
    private final Path toolUse;
    private final Path heldOut;
    private final String task;
    private final Predicate<Trace> success;
    private final Consumer<StepLine> onLine;
    private final List<StepLine> lines = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;
    private boolean firstReport = true;
    private final long tornBytesRepaired;

    /**
     * @param task    the task the run trains on: the context of its tool-use records (null: each query's hash)
     * @param success what counts as a solved rollout in a step's accuracy (the reward trained on may be shaped); it sees
     *                the trace with the reward it was given ({@link Trace#reward()})
     * @param onLine  hears each step's line after it is written (a progress display)
     */
    public RunRecorder(Path runDir, String task, Predicate<Trace> success, Consumer<StepLine> onLine) {
        this.metrics = runDir.resolve("metrics.jsonl");
        this.traces = runDir.resolve("traces.jsonl");
        this.toolUse = runDir.resolve(ToolUse.FILE);
        this.heldOut = runDir.resolve(HeldOutLine.FILE);
        this.task = task;
        this.success = success;
        this.onLine = onLine;
        this.tornBytesRepaired = repair(metrics) + repair(traces) + repair(toolUse) + repair(heldOut);
    }

    /** Bytes of torn last lines cut off the run folder's files when this recorder opened them. */
    public long tornBytesRepaired() {
        return tornBytesRepaired;
    }

    private static long repair(Path file) {
        try {
            long cut = JsonLines.repairTornTail(file);
            if (cut > 0) LOG.warn("{}: cut off a torn last line of {} bytes left by a crash mid-append", file, cut);
            return cut;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot repair " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void accept(StepReport report) {
        if (firstReport) {
            firstReport = false;
            forgetFrom(report.step());
        }
        long now = System.nanoTime();
        List<ScoredTrace> scored = report.scored().stream().flatMap(g -> g.traces().stream()).toList();
        List<Trace> recorded = scored.stream().map(t -> t.trace().withReward(t.reward()).withJobStep(report.step())).toList();
        double accuracy = recorded.stream().filter(success).count() / (double) Math.max(1, recorded.size());
        List<Trace> sampled = report.sampled().stream().flatMap(g -> g.traces().stream())
                .map(t -> t.trace().withReward(t.reward())).toList();
        double sampledAccuracy = sampled.isEmpty() ? Double.NaN : sampled.stream().filter(success).count() / (double) sampled.size();
        double sampledMeanReward = StepReport.meanReward(report.sampled());
        int trainedFrom = report.published() ? report.version() - 1 : report.version();
        int[] lags = scored.stream().mapToInt(t -> policyLag(t.trace(), trainedFrom)).toArray();
        StepLine line = new StepLine(report.step(), report.version(), report.scored().size(),
                report.dropped().size(), report.meanReward(), accuracy, sampledMeanReward, sampledAccuracy,
                scored.size() / Math.max(1e-9, (now - lastNanos) / 1e9), (now - startNanos) / 1e9,
                report.groupsSampled(), report.informativeFraction(), report.metrics(), Arrays.stream(lags).average().orElse(0),
                Arrays.stream(lags).max().orElse(0), toolCalls(scored), report.elapsed().toNanos() / 1e9);
        lastNanos = now;
        lines.add(line);
        JsonLines.write(metrics, List.of(line), RunRecorder::toJson, true, "step metrics");
        TraceJson.append(traces, recorded);
        ToolUse.append(toolUse, ToolUse.records(recorded, runName(), task));
        onLine.accept(line);
    }

    /** Appends a held-out evaluation run after a step (on the learner's thread, after that step's record). */
    public synchronized void heldOut(HeldOutLine line) {
        JsonLines.write(heldOut, List.of(line), RunRecorder::toJson, true, "held-out evaluation");
    }

    public synchronized List<StepLine> lines() {
        return List.copyOf(lines);
    }

    /** Every step line of the run folder's {@code metrics.jsonl} (all sessions of a resumed run); a bad line is skipped and logged. */
    public static List<StepLine> read(Path runDir) {
        Path file = runDir.resolve("metrics.jsonl");
        if (!Files.exists(file)) return List.of();
        JsonLines.Read<StepLine> read = JsonLines.read(file, "metrics", line -> JSON.readValue(line, StepLine.class));
        read.skipped().forEach(s -> LOG.warn("{} line {} skipped: {}", file, s.lineNumber(), s.reason()));
        return read.items();
    }

    /** Every held-out evaluation of the run folder's {@value HeldOutLine#FILE}; a bad line is skipped and logged. */
    public static List<HeldOutLine> readHeldOut(Path runDir) {
        Path file = runDir.resolve(HeldOutLine.FILE);
        if (!Files.exists(file)) return List.of();
        JsonLines.Read<HeldOutLine> read = JsonLines.read(file, "held-out evaluations", line -> JSON.readValue(line, HeldOutLine.class));
        read.skipped().forEach(s -> LOG.warn("{} line {} skipped: {}", file, s.lineNumber(), s.reason()));
        return read.items();
    }

    /** Removes the records of steps from {@code step} on, left by an earlier session that died before their checkpoint. */
    private void forgetFrom(long step) {
        if (read(metrics.getParent()).stream().noneMatch(line -> line.step() >= step)) return;
        LOG.warn("{}: steps from {} on are redone after the resume; their earlier records are replaced", metrics.getParent(), step);
        keepLines(metrics, line -> line.path("step"), step);
        if (Files.exists(traces)) keepLines(traces, trace -> trace.path("metadata").path(Trace.STEP_KEY), step);
        if (Files.exists(toolUse)) keepLines(toolUse, record -> record.path("step"), step);
        if (Files.exists(heldOut)) keepLines(heldOut, record -> record.path("step"), step);
    }

    /** The run's id in its tool-use records: the run folder's name. */
    private String runName() {
        Path name = metrics.toAbsolutePath().getParent().getFileName();
        return name == null ? null : name.toString();
    }

    /**
     * Keeps the lines whose step is below {@code step}; a line without one stays. A line that is not JSON cannot be
     * told apart from a redone step's record, so it goes too (counted and logged by number, never echoed).
     */
    private static void keepLines(Path file, Function<JsonNode, JsonNode> stepOf, long step) {
        try {
            List<String> kept = new ArrayList<>();
            int number = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                number++;
                if (line.isBlank()) continue;
                JsonNode s;
                try {
                    s = stepOf.apply(JSON.readTree(line));
                } catch (JsonProcessingException e) {
                    LOG.warn("{} line {} is not a JSON record; removed with the redone steps' records", file, number);
                    continue;
                }
                if (!s.isNumber() || s.asLong() < step) kept.add(line);
            }
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(tmp, kept, StandardCharsets.UTF_8);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + file + ": " + e.getMessage(), e);
        }
    }

    private static String toJson(Record line) {
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a " + line.getClass().getSimpleName() + " cannot be written as JSON", e);
        }
    }

    /** Versions between the policy trained from and the oldest that generated a token of the trace. */
    static int policyLag(Trace trace, int trainedFrom) {
        int oldest = trainedFrom;
        int[] versions = trace.tokens().policyVersions();
        int[] mask = trace.tokens().lossMask();
        for (int i = 0; i < versions.length; i++) {
            if (mask[i] == 1 && versions[i] >= 0) oldest = Math.min(oldest, versions[i]);
        }
        return trainedFrom - oldest;
    }

    private static Map<String, ToolCallStats> toolCalls(List<ScoredTrace> scored) {
        Map<String, ToolCallStats> byTool = new TreeMap<>();
        for (ScoredTrace t : scored) {
            for (ToolResult r : t.trace().toolResults()) byTool.merge(r.call().name(), ToolCallStats.of(r), ToolCallStats::plus);
        }
        return byTool;
    }
}
