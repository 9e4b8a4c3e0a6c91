package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a completion into its tagged blocks: {@code <think>}, {@code <tool_call>} (or a code action's {@code <code>})
 * and, where the format has it, {@code <answer>}.
 *
 * <p>Inside a block only its own closing tag ends it, so a thought may mention {@code <answer>} and
 * a JSON string may contain angle brackets. Outside blocks, a closing tag without an opening one, or
 * an opening tag never closed, rejects the completion.
 */
final class TagScanner {

    static final String THINK = ActionTag.THINK.tagName();
    static final String TOOL_CALL = ActionTag.TOOL_CALL.tagName();
    static final String ANSWER = ActionTag.ANSWER.tagName();
    static final String CODE = ActionTag.CODE.tagName();
    /** Tool-N1's blocks. */
    static final List<String> WITH_ANSWER = List.of(THINK, TOOL_CALL, ANSWER);
    /** Hermes' blocks: its answer is the plain text, so an {@code <answer>} there is just text. */
    static final List<String> WITHOUT_ANSWER = List.of(THINK, TOOL_CALL);
    /** A code action's blocks: the program takes the place of the calls. */
    static final List<String> WITH_CODE = List.of(THINK, CODE, ANSWER);

    /** One tagged block: its tag, its raw content, and where the whole block starts and ends in the text. */
    record Block(String tag, String content, int start, int end) {
    }

    private TagScanner() {
    }

    static List<Block> scan(String text, List<String> tags) throws ActionRejected {
        List<Block> blocks = new ArrayList<>();
        int pos = 0;
        while (true) {
            TagAt next = nextTag(text, pos, tags);
            if (next == null) return blocks;
            if (next.closing) {
                throw new ActionRejected(ParseError.Kind.UNCLOSED_TAG, "</" + next.tag + "> at character "
                        + next.index + " has no matching <" + next.tag + ">");
            }
            int contentStart = next.index + next.tag.length() + 2;
            String close = "</" + next.tag + ">";
            int closeAt = text.indexOf(close, contentStart);
            if (closeAt < 0) {
                throw new ActionRejected(ParseError.Kind.UNCLOSED_TAG, "<" + next.tag + "> at character "
                        + next.index + " is never closed with " + close);
            }
            pos = closeAt + close.length();
            blocks.add(new Block(next.tag, text.substring(contentStart, closeAt), next.index, pos));
        }
    }

    private record TagAt(String tag, int index, boolean closing) {
    }

    private static TagAt nextTag(String text, int from, List<String> tags) {
        TagAt best = null;
        for (String tag : tags) {
            best = earlier(best, tag, text.indexOf("<" + tag + ">", from), false);
            best = earlier(best, tag, text.indexOf("</" + tag + ">", from), true);
        }
        return best;
    }

    private static TagAt earlier(TagAt best, String tag, int index, boolean closing) {
        if (index < 0 || (best != null && best.index <= index)) return best;
        return new TagAt(tag, index, closing);
    }
}
