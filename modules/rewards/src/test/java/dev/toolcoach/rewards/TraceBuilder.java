package dev.toolcoach.rewards;

import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds traces turn by turn as the agent loop would record them. */
public final class TraceBuilder {

    private final String rolloutId;
    private final String query;
    private final List<Turn> turns = new ArrayList<>();

    private TraceBuilder(String rolloutId, String query) {
        this.rolloutId = rolloutId;
        this.query = query;
    }

    public static TraceBuilder rollout(String rolloutId, String query) {
        return new TraceBuilder(rolloutId, query);
    }

    /** A turn calling one tool that answers {@code output}. */
    public TraceBuilder call(String thought, String tool, Map<String, Object> args, String output) {
        ToolCall call = new ToolCall(tool, args);
        return turn(thought, List.of(call), List.of(ToolResult.ok(call, output, null, 5, false)), null);
    }

    /** A turn calling one tool that fails with {@code error}. */
    public TraceBuilder failedCall(String thought, String tool, Map<String, Object> args, String error) {
        ToolCall call = new ToolCall(tool, args);
        return turn(thought, List.of(call), List.of(ToolResult.failed(call, ToolResult.Status.ERROR, error, 5)), null);
    }

    /** A turn whose completion did not parse. */
    public TraceBuilder invalid(String completion) {
        turns.add(new Turn("prompt", completion, ParsedCompletion.error(null, null,
                new ParseError(ParseError.Kind.NO_ACTION, "no tool call or answer")), null, List.of(), List.of(), 0, 0));
        return this;
    }

    private TraceBuilder turn(String thought, List<ToolCall> calls, List<ToolResult> results, String answer) {
        String toolOutput = results.stream().map(ToolResult::text).reduce((a, b) -> a + "\n" + b).orElse(null);
        turns.add(new Turn("prompt", "completion", new ParsedCompletion(thought, calls, null, answer, null),
                toolOutput, results, List.of(), 0, 0));
        return this;
    }

    /** Ends the run with a final answer turn. */
    public Trace answer(String thought, String answer) {
        turn(thought, List.of(), List.of(), answer);
        return new Trace(rolloutId, "g1", "q1", query, turns, null, answer, Termination.ANSWER, null, 0, 10, Map.of());
    }

    /** Ends the run without an answer. */
    public Trace stopped(Termination why) {
        return new Trace(rolloutId, "g1", "q1", query, turns, null, null, why, null, 0, 10, Map.of());
    }
}
