package dev.toolcoach.agent;

import dev.toolcoach.trace.Message;

import java.util.List;
import java.util.Optional;

/**
 * How a model family lays out a conversation as text (ChatML, Llama 3, ...).
 *
 * <p>The agent loop never re-renders a conversation it already tokenised: it renders the initial
 * prompt once, then appends only what follows each reply (its closing text, the observation message
 * and the next generation prefix). These methods are the pieces it needs for that.
 *
 * <p>A format over a model's own template also offers that {@link #template()}: with a native action format the
 * agent then renders whole conversations through it (tools, calls, the tool role) and appends what each new
 * rendering adds to what the model saw.
 */
public interface ChatFormat {

    /** One complete message, including its end-of-turn marker and any separator after it. */
    String renderMessage(Message message);

    /** The text that opens an assistant reply, after which the model generates. */
    String generationPrefix();

    /**
     * The text that closes an assistant reply and separates it from the next message. When the
     * model ended the reply with its stop token, that token is already in the context and only the
     * remainder is returned (e.g. the newline after {@code <|im_end|>}); when generation was cut off,
     * the whole end-of-turn marker is returned.
     */
    String closeReply(boolean endedByStopToken);

    /** The message that carries one turn's tool outputs back to the model. */
    Message toolResponses(List<String> outputs);

    /**
     * Whether the pieces above reproduce the model's own rendering of a longer conversation. False for a template
     * that rewrites a reply (e.g. Qwen3 writes a thinking block into it): only native formats, which render through
     * {@link #template()}, can run on such a format.
     */
    default boolean appendsTurns() {
        return true;
    }

    /** The model's own whole-conversation template, when this format is cut from one. */
    default Optional<ConversationTemplate> template() {
        return Optional.empty();
    }

    /** The conversation so far followed by the generation prefix: the first prompt of a run. */
    default String renderPrompt(List<Message> conversation) {
        StringBuilder text = new StringBuilder();
        for (Message m : conversation) {
            text.append(renderMessage(m));
        }
        return text.append(generationPrefix()).toString();
    }
}
