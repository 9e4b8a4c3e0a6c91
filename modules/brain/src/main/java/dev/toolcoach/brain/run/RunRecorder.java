package dev.toolcoach.brain.run;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Records a training run as it goes: one {@code metrics.jsonl} line per learner step and every scored
 * trace, its reward in the metadata, in {@code traces.jsonl} (both appended, so a resumed run continues
 * them). Called on the learner's thread; keeps the step lines for the reward curve and progress display.
 */
public final class RunRecorder implements Consumer<StepReport> {
    private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path metrics;
    private final Path traces;
    private final Predicate<Trace> success;
    private final Consumer<StepLine> onLine;
    private final List<StepLine> lines = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;

    /**
     * @param success what counts as a solved rollout in a step's accuracy (the reward trained on may be shaped)
     * @param onLine  hears each step's line after it is written (a progress display)
     */
    public RunRecorder(Path runDir, Predicate<Trace> success, Consumer<StepLine> onLine) {
        this.metrics = runDir.resolve("metrics.jsonl");
        this.traces = runDir.resolve("traces.jsonl");
        this.success = success;
        this.onLine = onLine;
    }

    @Override
    public synchronized void accept(StepReport report) {
        long now = System.nanoTime();
        List<ScoredTrace> scored = report.outcome().scored().stream().flatMap(g -> g.traces().stream()).toList();
        double accuracy = scored.stream().filter(t -> success.test(t.trace())).count() / (double) Math.max(1, scored.size());
        StepLine line = new StepLine(report.step(), report.version(), report.outcome().scored().size(),
                report.outcome().dropped().size(), report.outcome().meanReward(), accuracy,
                scored.size() / Math.max(1e-9, (now - lastNanos) / 1e9), (now - startNanos) / 1e9,
                report.outcome().result().map(r -> r.metrics()).orElse(null));
        lastNanos = now;
        lines.add(line);
        try {
            Files.writeString(metrics, JSON.writeValueAsString(line) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + metrics, e);
        }
        TraceJson.append(traces, scored.stream().map(RunRecorder::withReward).toList());
        onLine.accept(line);
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

    private static Trace withReward(ScoredTrace scored) {
        Trace t = scored.trace();
        Map<String, Object> metadata = new LinkedHashMap<>(t.metadata());
        metadata.put("reward", scored.reward());
        return new Trace(t.rolloutId(), t.groupId(), t.queryId(), t.query(), t.turns(), t.tokens(), t.finalAnswer(),
                t.termination(), t.error(), t.startedAtMillis(), t.durationMillis(), metadata);
    }
}
