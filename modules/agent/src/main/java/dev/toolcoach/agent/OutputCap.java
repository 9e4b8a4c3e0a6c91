package dev.toolcoach.agent;

import dev.toolcoach.trace.ToolResult;

/**
 * Cuts tool output that is too long for the context out of its middle, where it usually matters
 * least (the start says what it is, the end often holds totals or errors), leaving a marker that
 * says how much was removed.
 */
public final class OutputCap {

    private final int maxChars;

    public OutputCap(int maxChars) {
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0, got " + maxChars);
        this.maxChars = maxChars;
    }

    /** The result with its text cut to the cap (and marked truncated), or the result itself if it fits. */
    public ToolResult apply(ToolResult result) {
        if (result.text().length() <= maxChars) return result;
        return new ToolResult(result.call(), result.status(), truncate(result.text()), result.structured(),
                result.error(), result.latencyMillis(), true);
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
