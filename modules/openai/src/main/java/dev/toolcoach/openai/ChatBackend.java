package dev.toolcoach.openai;

import dev.toolcoach.agent.ActionFormat;

import java.util.function.Consumer;

/**
 * The model behind the OpenAI-compatible server: turns a conversation into the assistant's next
 * turn in the action format. Implementations may block; the server calls them off its I/O threads,
 * at most {@code max-concurrent-generations} at a time.
 */
public interface ChatBackend {

    /** The id served at {@code /v1/models} and expected in requests. */
    String modelId();

    /** The format the model writes its turns in: the server writes earlier turns and reads replies with its codec. */
    ActionFormat actionFormat();

    /**
     * Generates the next assistant turn.
     *
     * @param onText receives the text in pieces as it is generated (for streaming); the pieces
     *               concatenated equal the returned text. An empty piece as soon as the request is accepted lets a
     *               stream begin before the first text; a request refused before any piece gets its status (400)
     * @throws IllegalArgumentException when the request is one this model cannot take (the client gets a 400);
     *                                  any other exception is a server error (500)
     */
    BackendReply generate(BackendRequest request, Consumer<String> onText);
}
