package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;

import java.util.List;

/**
 * Reads and writes the model text of one action format: thinking, tool calls and the final answer.
 * Every place that reads or writes action text (the agent, the OpenAI server, distillation, the
 * function-calling checker) goes through the codec of its {@link ActionFormat}, so a model family's
 * native format is one more implementation.
 *
 * <p>Reading comes in two strengths: strict for the agent, where every defect is a {@code ParseError}
 * the model is told about; lenient for readers that must take any text (a server answering a client,
 * a checker scoring predictions), which learn what could be read and why the rest could not.
 */
public interface ToolCallCodec {

    /** Strict: the action of a completion, or the first thing wrong with it; total over all strings. */
    ParsedCompletion readStrict(String completion, ArgumentValidator tools);

    /** Lenient: the call objects of every call block, in order, as far as they can be read. */
    CallReading readCalls(String text);

    /** Lenient: the thinking and the answer written so far, for streaming them while they grow. */
    TextSoFar readSoFar(String text);

    /** Lenient: the text with its thinking removed, as plain content. */
    String textOutsideThinking(String text);

    /**
     * Lenient: the reply's text beside its calls, as a chat template's assistant {@code content} holds it next to
     * its {@code tool_calls}. This default suits a codec whose calls are the whole reply (nothing beside them);
     * a codec whose calls sit among other text cuts them out.
     */
    default String contentBesideCalls(String text) {
        return readCalls(text).blocks().isEmpty() ? text.strip() : "";
    }

    /** The thinking and what separates it from the rest of the reply ("" in a format without thinking). */
    String writeThinking(String thinking);

    String writeAnswer(String answer);

    /** The calls as the format lays them out, arguments in their given order. */
    String writeCalls(List<ToolCall> calls);

    /**
     * The calls, arguments as given (even when they are not an object, so a strict reader reports it);
     * {@code ownLine} puts the JSON on a line of its own between the tags where the format leaves that open.
     */
    String writeCalls(List<WrittenCall> calls, boolean ownLine);

    /**
     * @param thinking the thinking so far (its block may still be open), or null when none has begun
     * @param answer   the answer so far, likewise
     */
    record TextSoFar(String thinking, String answer) {
    }

    /** A call to write whose arguments are JSON already. */
    record WrittenCall(String name, JsonNode arguments) {
    }

    /**
     * What a lenient reading found.
     *
     * @param blocks        the call objects of each call block read, in order (each call as written: a checker
     *                      decides which shapes it accepts)
     * @param error         why reading stopped after {@code blocks}, or null when every block was read;
     *                      also set when the text has no call block at all
     * @param cutOff        whether the error is a last call block never closed (a reply cut by its token limit)
     * @param thinkingFirst whether a complete thinking block comes before the first call block
     */
    record CallReading(List<List<JsonNode>> blocks, String error, boolean cutOff, boolean thinkingFirst) {
        public CallReading {
            blocks = blocks.stream().map(List::copyOf).toList();
        }
    }
}
