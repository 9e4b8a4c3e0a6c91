package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Renders a trace for people (ToolBrain's {@code debug_trace}): per turn what the model saw, what it
 * said, what the parser made of it and what each tool returned; then a token summary and warnings.
 *
 * <p>A later turn's prompt repeats the earlier ones, so only what is new since the previous reply is
 * shown. Long texts are cut in the middle to {@code maxChars}.
 */
public final class TracePrinter {

    private final int maxChars;

    public TracePrinter(int maxChars) {
        if (maxChars < 20) throw new IllegalArgumentException("maxChars must be at least 20, got " + maxChars);
        this.maxChars = maxChars;
    }

    /** Prints with texts cut to 2,000 characters. */
    public static String print(Trace trace) {
        return new TracePrinter(2000).format(trace);
    }

    public String format(Trace trace) {
        StringBuilder out = new StringBuilder();
        out.append("Trace ").append(trace.rolloutId()).append("  group ").append(trace.groupId())
                .append("  query ").append(trace.queryId()).append('\n');
        out.append("Query: ").append(trace.query()).append('\n');
        out.append("Ended: ").append(trace.termination()).append(" after ").append(trace.turns().size())
                .append(" turn(s) in ").append(trace.durationMillis()).append(" ms");
        if (trace.finalAnswer() != null) out.append(" with answer: ").append(trace.finalAnswer());
        if (trace.error() != null) out.append(" with error: ").append(trace.error());
        out.append('\n');
        if (trace.reward().isPresent() || trace.jobStep().isPresent()) {
            out.append("Reward: ").append(trace.reward().isPresent() ? String.format(Locale.ROOT, "%.4f", trace.reward().getAsDouble()) : "none");
            if (trace.jobStep().isPresent()) out.append("  (trained at job step ").append(trace.jobStep().getAsLong()).append(')');
            out.append('\n');
        }
        String seen = null;
        for (int i = 0; i < trace.turns().size(); i++) {
            Turn turn = trace.turns().get(i);
            out.append("\n── Turn ").append(i + 1).append("  (tokens ").append(turn.tokenStart()).append("..")
                    .append(turn.tokenEnd()).append(")\n");
            appendPrompt(out, seen, turn.promptForModel());
            section(out, "Model said:", turn.modelCompletion());
            appendParsed(out, turn.parsedCompletion());
            appendResults(out, turn.actionOutput());
            if (turn.toolOutput() != null) section(out, "Observation:", turn.toolOutput());
            seen = turn.promptForModel() == null ? null : turn.promptForModel() + nullToEmpty(turn.modelCompletion());
        }
        out.append('\n').append(tokenSummary(trace)).append('\n');
        List<String> warnings = TraceWarnings.of(trace);
        out.append("Warnings: ").append(warnings.isEmpty() ? "none" : warnings.size()).append('\n');
        for (String w : warnings) out.append("  - ").append(w).append('\n');
        return out.toString();
    }

    private void appendPrompt(StringBuilder out, String seen, String prompt) {
        if (prompt == null) {
            out.append("Model saw: (not recorded)\n");
        } else if (seen != null && prompt.startsWith(seen)) {
            section(out, "Model saw (new since its last reply):", prompt.substring(seen.length()));
        } else {
            section(out, "Model saw (" + prompt.length() + " chars):", prompt);
        }
    }

    private void appendParsed(StringBuilder out, ParsedCompletion parsed) {
        out.append("Parsed:\n");
        if (parsed == null) {
            out.append("  (not parsed)\n");
            return;
        }
        if (parsed.thought() != null) out.append("  thought: ").append(cut(parsed.thought())).append('\n');
        for (ToolCall c : parsed.toolCalls()) {
            out.append("  call ").append(c.name()).append(' ').append(json(c.arguments())).append('\n');
        }
        if (parsed.finalAnswer() != null) out.append("  answer: ").append(cut(parsed.finalAnswer())).append('\n');
        if (parsed.parseError() != null) out.append("  PARSE ERROR ").append(parsed.parseError()).append('\n');
    }

    private void appendResults(StringBuilder out, List<ToolResult> results) {
        if (results.isEmpty()) return;
        out.append("Tool results:\n");
        for (ToolResult r : results) {
            out.append("  ").append(r.call().name()).append(" → ").append(r.status()).append(" in ")
                    .append(r.latencyMillis()).append(" ms").append(r.truncated() ? " (truncated)" : "").append(": ")
                    .append(cut(r.text()).replace("\n", "\n    ")).append('\n');
        }
    }

    private static String tokenSummary(Trace trace) {
        TokenRecord t = trace.tokens();
        int generated = t.generatedCount();
        int observed = t.length() - t.promptLength() - generated;
        StringBuilder s = new StringBuilder("Tokens: ").append(t.length()).append(" = ").append(t.promptLength())
                .append(" prompt + ").append(generated).append(" generated (loss mask 1) + ").append(observed)
                .append(" observation");
        if (t.contextCount() > 1) {
            s.append(" in ").append(t.contextCount()).append(" contexts (the chat template rewrote earlier turns,"
                    + " so the run started over at tokens ").append(Arrays.toString(t.contextStarts())).append(')');
        }
        int minVersion = Integer.MAX_VALUE;
        int maxVersion = Integer.MIN_VALUE;
        double logprobSum = 0;
        for (int i = 0; i < t.length(); i++) {
            if (t.lossMask()[i] == 0) continue;
            minVersion = Math.min(minVersion, t.policyVersions()[i]);
            maxVersion = Math.max(maxVersion, t.policyVersions()[i]);
            logprobSum += t.behaviorLogprobs()[i];
        }
        if (generated > 0) {
            s.append("; policy versions ").append(minVersion == maxVersion ? String.valueOf(minVersion)
                    : minVersion + ".." + maxVersion);
            s.append("; mean behaviour log-prob ").append(String.format("%.3f", logprobSum / generated));
        }
        return s.toString();
    }

    private void section(StringBuilder out, String title, String text) {
        out.append(title).append('\n');
        out.append("  ").append(cut(nullToEmpty(text)).replace("\n", "\n  ")).append('\n');
    }

    private String cut(String text) {
        if (text.length() <= maxChars) return text;
        int keep = maxChars / 2;
        return text.substring(0, keep) + " … [" + (text.length() - 2 * keep) + " chars] … "
                + text.substring(text.length() - keep);
    }

    private static String json(Object value) {
        try {
            return TraceJson.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
