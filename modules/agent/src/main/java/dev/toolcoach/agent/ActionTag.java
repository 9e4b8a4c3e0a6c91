package dev.toolcoach.agent;

import java.util.Locale;

/** The blocks of tagged action text: {@code <think>}, {@code <tool_call>}, {@code <code>} (a code action) and {@code <answer>}. */
public enum ActionTag {
    THINK,
    TOOL_CALL,
    CODE,
    ANSWER;

    /** The name inside the angle brackets: the constant's name in lower case. */
    public String tagName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String open() {
        return "<" + tagName() + ">";
    }

    public String close() {
        return "</" + tagName() + ">";
    }

    /** {@code content} inside this tag, as written. */
    public String wrap(String content) {
        return open() + content + close();
    }

    /**
     * The stripped content of this block while it may still be open: null before the opening tag appears;
     * after it, everything up to the closing tag, or to the end minus a trailing partial closing tag.
     */
    public String soFar(String text) {
        String open = open();
        String close = close();
        int start = text.indexOf(open);
        if (start < 0) return null;
        start += open.length();
        int end = text.indexOf(close, start);
        if (end < 0) {
            end = text.length();
            for (int k = Math.min(close.length() - 1, end - start); k > 0; k--) {
                if (text.startsWith(close.substring(0, k), end - k)) {
                    end -= k;
                    break;
                }
            }
        }
        return text.substring(start, end).strip();
    }

    /** {@code text} without a trailing beginning of one of {@code openings} (a tag still being generated). */
    static String withoutPartialOpening(String text, String... openings) {
        for (String opening : openings) {
            for (int k = Math.min(opening.length() - 1, text.length()); k > 0; k--) {
                if (text.endsWith(opening.substring(0, k))) return text.substring(0, text.length() - k);
            }
        }
        return text;
    }
}
