package dev.toolcoach.brain.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.DpoMetrics;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.learn.core.SftMetrics;
import dev.toolcoach.learn.core.TrainingMetrics;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Turn;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The run folder's records across sessions: appended, and a step redone after a resume recorded once. */
class RunRecorderTest {

    @Test
    void aResumeThatRedoesStepsReplacesTheirRecordsAndKeepsTheRest(@TempDir Path run) {
        RunRecorder first = new RunRecorder(run, "finance", t -> true, line -> { });
        for (int step = 1; step <= 3; step++) {
            first.accept(report(step, "a"));
            first.heldOut(new HeldOutLine(step, step, 10, step, step / 10.0, List.of(0.0, 1.0), 0.5));
        }
        // the node died after step 3 but before its checkpoint: the next session resumes after step 2 and redoes step 3
        RunRecorder second = new RunRecorder(run, "finance", t -> true, line -> { });
        second.accept(report(3, "b"));
        second.heldOut(new HeldOutLine(3, 3, 10, 9, 0.9, List.of(0.0, 1.0), 0.5));
        second.accept(report(4, "b"));
        assertEquals(List.of(1, 2, 9), RunRecorder.readHeldOut(run).stream().map(HeldOutLine::correct).toList(),
                "the redone step's held-out evaluation replaces the first session's");

        assertEquals(List.of(1L, 2L, 3L, 4L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(List.of("a/g1/0", "a/g2/0", "b/g3/0", "b/g4/0"), TraceJson.read(run.resolve("traces.jsonl")).items().stream()
                .map(Trace::rolloutId).toList());
        assertEquals(3L, ((Number) TraceJson.read(run.resolve("traces.jsonl")).items().get(2).metadata()
                .get(Trace.STEP_KEY)).longValue());

        // the tool-use log follows the traces: one record per call, the redone step's replaced
        List<ToolUseRecord> uses = ToolUse.read(run.resolve(ToolUse.FILE)).items();
        assertEquals(List.of("a/g1/0", "a/g2/0", "b/g3/0", "b/g4/0"), uses.stream().map(ToolUseRecord::traceId).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L), uses.stream().map(ToolUseRecord::step).toList());
        assertEquals(run.getFileName().toString(), uses.get(0).run());
        assertEquals("task:finance", uses.get(0).context());
        assertEquals(1.0, uses.get(0).episodeReward());

        // a session that starts where the last one ended changes nothing before it
        new RunRecorder(run, "finance", t -> true, line -> { }).accept(report(5, "c"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(5, TraceJson.read(run.resolve("traces.jsonl")).items().size());
    }

    @Test
    void aCrashMidAppendLeavesATornTailThatTheNextSessionCutsOffBeforeRedoingTheStep(@TempDir Path run) throws Exception {
        RunRecorder first = new RunRecorder(run, "finance", t -> true, line -> { });
        for (int step = 1; step <= 3; step++) first.accept(report(step, "a"));
        // the process died while appending step 4: half a line at the end of both files
        String metricsLine4 = Files.readAllLines(run.resolve("metrics.jsonl")).get(2).replace("\"step\":3", "\"step\":4");
        String traceLine4 = Files.readAllLines(run.resolve("traces.jsonl")).get(2);
        Files.writeString(run.resolve("metrics.jsonl"), metricsLine4.substring(0, metricsLine4.length() / 2), StandardOpenOption.APPEND);
        Files.writeString(run.resolve("traces.jsonl"), traceLine4.substring(0, 17), StandardOpenOption.APPEND);

        // the checkpoint was after step 2: the next session redoes 3 and goes on
        RunRecorder second = new RunRecorder(run, "finance", t -> true, line -> { });
        assertEquals(metricsLine4.length() / 2 + 17, second.tornBytesRepaired());
        second.accept(report(3, "b"));
        second.accept(report(4, "b"));

        // every line is a whole record, each step once, nothing glued to the torn line
        for (String file : List.of("metrics.jsonl", "traces.jsonl")) {
            for (String line : Files.readAllLines(run.resolve(file))) new ObjectMapper().readTree(line);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(List.of("a/g1/0", "a/g2/0", "b/g3/0", "b/g4/0"), TraceJson.read(run.resolve("traces.jsonl")).items().stream()
                .map(Trace::rolloutId).toList());
        assertEquals(List.of(), TraceJson.read(run.resolve("traces.jsonl")).skipped());
    }

    @Test
    void aResumeDropsABadLineInTheMiddleInsteadOfFailingAndKeepingTheRedoneSteps(@TempDir Path run) throws Exception {
        RunRecorder first = new RunRecorder(run, "finance", t -> true, line -> { });
        for (int step = 1; step <= 3; step++) first.accept(report(step, "a"));
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(run.resolve("metrics.jsonl")));
        lines.add(1, "{\"step\": 2, garbage");
        Files.write(run.resolve("metrics.jsonl"), lines);

        new RunRecorder(run, "finance", t -> true, line -> { }).accept(report(3, "b"));

        assertEquals(List.of(1L, 2L, 3L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(List.of("a/g1/0", "a/g2/0", "b/g3/0"), TraceJson.read(run.resolve("traces.jsonl")).items().stream()
                .map(Trace::rolloutId).toList());
    }

    @Test
    void eachAlgorithmsFiguresAreWrittenAsTheRecordsOwnFieldsAndReadBackAsTheSameRecord(@TempDir Path run) throws Exception {
        List<TrainingMetrics> written = List.of(
                new GrpoMetrics(1, 0.5, 1.01, 0.02, 0.03, 0.04, 0.05, 1.5, 0.9, 120, 1, 0.25, 1e-4, 0),
                new DpoMetrics(2, 0.69, 0.75, 0.1, 4, 0.8, 1e-4, 0),
                new SftMetrics(3, 1.2, 300, 2, 0.7, 1e-4, 1));
        RunRecorder recorder = new RunRecorder(run, "finance", t -> true, line -> { });
        for (int i = 0; i < written.size(); i++) recorder.accept(report(i + 1, "a", written.get(i)));

        ObjectMapper plain = new ObjectMapper();
        List<String> lines = Files.readAllLines(run.resolve("metrics.jsonl"));
        for (int i = 0; i < written.size(); i++) {
            // the same object a record of that class alone is written as: no type tag added
            assertEquals(plain.readTree(plain.writeValueAsString(written.get(i))), plain.readTree(lines.get(i)).get("learner"));
        }
        List<StepLine> read = RunRecorder.read(run);
        assertEquals(written, read.stream().map(StepLine::learner).toList());
        assertEquals(3, plain.readTree(lines.get(0)).get("groups_sampled").asInt());
        assertEquals(1.0 / 3, plain.readTree(lines.get(0)).get("informative_fraction").asDouble(), 1e-12);
        JsonNode grpo = plain.readTree(lines.get(0)).get("learner");
        assertEquals(1.01, grpo.get("meanRatio").asDouble());
        assertEquals(120, grpo.get("tokensTrained").asLong());
    }

    /**
     * The trained figures cover the step's batch; the sampled ones every rollout sampled for it, the groups dynamic
     * sampling dropped (all right, mostly) included, so a curve of them shows how well the policy does.
     */
    @Test
    void aStepRecordsItsTrainedAndItsSampledFigures(@TempDir Path run) {
        RunRecorder recorder = new RunRecorder(run, "finance", t -> t.reward().orElse(0) >= 1.0, line -> { });
        recorder.accept(report(1, "a"));
        StepLine line = RunRecorder.read(run).get(0);
        assertEquals(1.0, line.meanReward());
        assertEquals(1.0, line.accuracy());
        assertEquals(0.6, line.sampledMeanReward(), 1e-12, "three of the five sampled rollouts scored 1");
        assertEquals(0.6, line.sampledAccuracy(), 1e-12);
        assertEquals(1 / 3.0, line.informativeFraction(), 1e-12, "one of the three sampled groups kept");
    }

    @Test
    void eachStepRecordsItsPolicyLagAndItsToolCallsByTool(@TempDir Path run) {
        ToolCall add = new ToolCall("add", Map.of("a", 1));
        ToolCall search = new ToolCall("search", Map.of("q", "x"));
        Turn turn = new Turn("p", "c", new ParsedCompletion(null, List.of(add, search, add), null, null, null), "o",
                List.of(ToolResult.ok(add, "2", null, 10, false).withCpuMillis(4),
                        ToolResult.failed(search, ToolResult.Status.TIMEOUT, "slow", 200),
                        ToolResult.ok(add, "3", null, 20, false).withCpuMillis(8)), List.of(), 1, 4);
        // generated by versions 3 and 4 (the observation token's -1 is not a version), trained from version 5
        Trace stale = new Trace("s", "g", "q", "?", List.of(turn), new TokenRecord(1, new int[]{1, 2, 3, 4},
                new int[]{0, 1, 0, 1}, new float[]{0, -1, 0, -1}, new int[]{-1, 3, -1, 4}), null, Termination.MAX_TURNS, null, 0, 0, Map.of());
        Trace fresh = new Trace("f", "g", "q", "?", List.of(), new TokenRecord(1, new int[]{1, 2}, new int[]{0, 1},
                new float[]{0, -1}, new int[]{-1, 5}), null, Termination.MAX_TURNS, null, 0, 0, Map.of());
        RunRecorder recorder = new RunRecorder(run, "finance", t -> true, line -> { });
        recorder.accept(new StepReport(7, 6, List.of(new ScoredGroup("g", List.of(new ScoredTrace(stale, 0), new ScoredTrace(fresh, 1)))),
                List.of(), List.of(), 1, 1, new SftMetrics(7, 1.0, 10, 1, 0.5, 1e-4, 0), true, Duration.ZERO,
                new LearnerAccounts(1, 0, 1, GroupCounts.NONE, 0, 1)));

        StepLine line = RunRecorder.read(run).get(0);
        assertEquals(1.0, line.meanPolicyLag());
        assertEquals(2, line.maxPolicyLag());
        assertEquals(Map.of("add", new ToolCallStats(2, 0, 30, 12), "search", new ToolCallStats(1, 1, 200, 0)), line.toolCalls());
        assertEquals(15.0, line.toolCalls().get("add").meanLatencyMillis());
        assertEquals(6.0, line.toolCalls().get("add").meanCpuMillis());
    }

    private static StepReport report(int step, String session) {
        return report(step, session, new SftMetrics(step, 1.0, 10, 1, 0.5, 1e-4, 0));
    }

    /** One group of one trace (reward 1), sampled with two more groups dropped for lack of signal (rewards 1, 1 and 0, 0). */
    private static StepReport report(int step, String session, TrainingMetrics metrics) {
        ToolCall call = new ToolCall("get_price", Map.of("ticker", "T" + step));
        Turn turn = new Turn("p", "c", new ParsedCompletion(null, List.of(call), null, null, null), "o",
                List.of(ToolResult.ok(call, "1", 1, 2, false)), List.of(), 0, 0);
        Trace trace = new Trace(session + "/g" + step + "/0", "g" + step, "q" + step, "query", List.of(turn), null, "",
                Termination.ANSWER, null, 0, 0, Map.of());
        List<ScoredGroup> alike = List.of(1.0, 0.0).stream().map(r -> new ScoredGroup("g" + step + "-" + r, List.of(
                new ScoredTrace(trace, r), new ScoredTrace(trace, r)))).toList();
        return new StepReport(step, step, List.of(new ScoredGroup("g" + step, List.of(new ScoredTrace(trace, 1.0)))),
                alike, List.of(), 3, 1, metrics, true, Duration.ZERO, new LearnerAccounts(step, 0, step, GroupCounts.NONE, 0, step));
    }
}
