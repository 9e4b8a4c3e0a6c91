package dev.toolcoach.trace;

import java.util.ArrayList;
import java.util.List;

/** The things in a trace a person debugging a run should look at first. */
public final class TraceWarnings {

    private TraceWarnings() {
    }

    public static List<String> of(Trace trace) {
        List<String> warnings = new ArrayList<>();
        int previousEnd = trace.tokens().promptLength();
        for (int i = 0; i < trace.turns().size(); i++) {
            Turn turn = trace.turns().get(i);
            String at = "turn " + (i + 1) + ": ";
            ParsedCompletion parsed = turn.parsedCompletion();
            if (parsed != null && parsed.parseError() != null) {
                warnings.add(at + "parse error " + parsed.parseError());
            }
            int calls = parsed == null ? 0 : parsed.toolCalls().size();
            if (calls > 0 && turn.actionOutput().isEmpty()) {
                warnings.add(at + calls + " tool call(s) but no tool output");
            } else if (calls > turn.actionOutput().size()) {
                warnings.add(at + calls + " tool calls but only " + turn.actionOutput().size() + " results");
            }
            for (ToolResult r : turn.actionOutput()) {
                if (!r.ok()) warnings.add(at + "tool '" + r.call().name() + "' " + r.status() + ": " + r.error());
                if (r.truncated()) warnings.add(at + "output of tool '" + r.call().name() + "' was truncated");
            }
            if (startsContextBefore(trace.tokens(), previousEnd, turn.tokenStart())) {
                previousEnd = turn.tokenStart(); // a new context's prompt lies between the turns
            }
            if (turn.tokenStart() != previousEnd || turn.tokenEnd() < turn.tokenStart()) {
                warnings.add(at + "token span " + turn.tokenStart() + ".." + turn.tokenEnd()
                        + " does not continue the previous one (ended at " + previousEnd + ")");
            }
            previousEnd = turn.tokenEnd();
        }
        if (previousEnd != trace.tokens().length()) {
            warnings.add("the turns cover tokens up to " + previousEnd + " of " + trace.tokens().length());
        }
        if (trace.tokens().length() > 0 && trace.tokens().generatedCount() == 0) {
            warnings.add("no token is marked as generated, so there is nothing to train on");
        }
        if (trace.termination() != Termination.ANSWER) {
            warnings.add("no final answer: the run ended with " + trace.termination()
                    + (trace.error() == null ? "" : " (" + trace.error() + ")"));
        }
        return warnings;
    }

    /** A context begins at {@code from} and nothing up to {@code to} was generated: that is the context's prompt. */
    private static boolean startsContextBefore(TokenRecord tokens, int from, int to) {
        if (!tokens.startsContext(from) || to > tokens.length()) return false;
        for (int i = from; i < to; i++) {
            if (tokens.lossMask()[i] != 0) return false;
        }
        return true;
    }
}
