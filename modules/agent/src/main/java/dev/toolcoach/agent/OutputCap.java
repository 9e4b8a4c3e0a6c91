package dev.toolcoach.agent;

import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.TraceJson;

import java.io.IOException;
import java.io.Writer;

/**
 * Cuts tool output that is too long for the context out of its middle, where it usually matters
 * least (the start says what it is, the end often holds totals or errors), leaving a marker that
 * says how much was removed. The structured output (what rewards read) and an error message are held to the same cap:
 * structured output whose JSON is longer is replaced by the capped text, so no path around the cap reaches a trace,
 * the wire or the learner.
 */
public final class OutputCap {

    private final int maxChars;

    public OutputCap(int maxChars) {
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0, got " + maxChars);
        this.maxChars = maxChars;
    }

    /** The result with its text, structured output and error cut to the cap (marked truncated), or the result itself if all fit. */
    public ToolResult apply(ToolResult result) {
        boolean structuredFits = fits(result.structured());
        boolean errorFits = result.error() == null || result.error().length() <= maxChars;
        if (result.text().length() <= maxChars && structuredFits && errorFits) return result;
        String text = truncate(result.text());
        return new ToolResult(result.call(), result.status(), text, structuredFits ? result.structured() : text,
                errorFits ? result.error() : truncate(result.error()), result.latencyMillis(), true, result.cpuMillis());
    }

    /** Whether the value's JSON is at most the cap; measured as it is written, stopping at the cap, never built whole. */
    private boolean fits(Object structured) {
        if (structured == null || structured instanceof Number || structured instanceof Boolean) return true;
        if (structured instanceof String s) return s.length() <= maxChars;
        try {
            TraceJson.mapper().writeValue(new CappedCount(maxChars), structured);
            return true;
        } catch (IOException e) { // over the cap, or not JSON at all: either way not passed on
            return false;
        }
    }

    /** A writer that only counts, and fails once more than its limit was written. */
    private static final class CappedCount extends Writer {
        private final long limit;
        private long written;

        CappedCount(long limit) {
            this.limit = limit;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            written += length;
            if (written > limit) throw new IOException("over the cap of " + limit + " characters");
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** Keeps the first and last {@code maxChars / 2} characters (never splitting a surrogate pair) around a marker. */
    public String truncate(String text) {
        if (text.length() <= maxChars) return text;
        int head = maxChars / 2;
        int tailStart = text.length() - (maxChars - head);
        if (head > 0 && Character.isHighSurrogate(text.charAt(head - 1))) head--;
        if (Character.isLowSurrogate(text.charAt(tailStart))) tailStart++;
        int removed = tailStart - head;
        return text.substring(0, head) + marker(removed) + text.substring(tailStart);
    }

    static String marker(int removedChars) {
        return "\n[... " + removedChars + " characters truncated ...]\n";
    }
}
