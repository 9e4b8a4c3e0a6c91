package dev.toolcoach.brain.run;

import dev.toolcoach.cluster.learner.LearnerAccounts;
import dev.toolcoach.cluster.learner.StepOutcome;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The run folder's records across sessions: appended, and a step redone after a resume recorded once. */
class RunRecorderTest {

    @Test
    void aResumeThatRedoesStepsReplacesTheirRecordsAndKeepsTheRest(@TempDir Path run) {
        RunRecorder first = new RunRecorder(run, t -> true, line -> { });
        for (long step = 1; step <= 3; step++) first.accept(report(step, "a"));
        // the node died after step 3 but before its checkpoint: the next session resumes after step 2 and redoes step 3
        RunRecorder second = new RunRecorder(run, t -> true, line -> { });
        second.accept(report(3, "b"));
        second.accept(report(4, "b"));

        assertEquals(List.of(1L, 2L, 3L, 4L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(List.of("a/g1/0", "a/g2/0", "b/g3/0", "b/g4/0"), TraceJson.read(run.resolve("traces.jsonl")).items().stream()
                .map(Trace::rolloutId).toList());
        assertEquals(3L, ((Number) TraceJson.read(run.resolve("traces.jsonl")).items().get(2).metadata()
                .get(RunRecorder.STEP_KEY)).longValue());

        // a session that starts where the last one ended changes nothing before it
        new RunRecorder(run, t -> true, line -> { }).accept(report(5, "c"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertEquals(5, TraceJson.read(run.resolve("traces.jsonl")).items().size());
    }

    private static StepReport report(long step, String session) {
        Trace trace = new Trace(session + "/g" + step + "/0", "g" + step, "q" + step, "query", List.of(), null, "",
                Termination.ANSWER, null, 0, 0, Map.of());
        StepOutcome outcome = new StepOutcome(List.of(new ScoredGroup("g" + step, List.of(new ScoredTrace(trace, 1.0)))),
                List.of(), Optional.empty(), Duration.ZERO);
        return new StepReport(step, step, outcome, new LearnerAccounts(step, 0, step, 0, 0, 0, 0, step, ""));
    }
}
