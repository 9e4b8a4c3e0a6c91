package dev.toolcoach.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.trace.UntrustedJson;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The chat-completions logic of the server, free of HTTP: validates a request, hands the
 * conversation to the backend in its model's action format, and maps the generated turn back to an OpenAI
 * reply (whole, or as chunks).
 */
final class ChatCompletions {

    private final ChatBackend backend;
    private final ActionMessages actionMessages;
    private final Clock clock;
    private final AtomicLong sequence = new AtomicLong();

    ChatCompletions(ChatBackend backend, Clock clock) {
        this.backend = backend;
        this.actionMessages = new ActionMessages(backend.actionFormat());
        this.clock = clock;
    }

    String modelId() {
        return backend.modelId();
    }

    ModelList models() {
        return new ModelList("list", List.of(new ModelCard(backend.modelId(), "model", created(), "toolcoach")));
    }

    /**
     * Reads a request body, nesting limited before anything recursive sees it.
     *
     * @throws RejectedRequest (400) saying what is wrong with it
     */
    ChatRequest read(String body) {
        ChatRequest request;
        try {
            JsonNode tree = UntrustedJson.readTree(OpenAiJson.mapper(), body, UntrustedJson.MAX_DEPTH);
            if (tree == null || tree.isMissingNode()) throw RejectedRequest.invalid("request body is empty");
            refuseWhatIsNotServed(tree);
            request = OpenAiJson.mapper().treeToValue(tree, ChatRequest.class);
        } catch (JsonProcessingException e) {
            throw RejectedRequest.invalid("request body is not a valid chat request: " + UntrustedJson.reason(e));
        }
        if (request == null) throw RejectedRequest.invalid("request body is empty");
        return request;
    }

    /** What a client may ask of OpenAI but this server does not give is refused, never silently left out of the reply. */
    private static void refuseWhatIsNotServed(JsonNode request) {
        JsonNode n = request.path("n");
        if (!n.isMissingNode() && !n.isNull() && !(n.isIntegralNumber() && n.asLong() == 1)) {
            throw RejectedRequest.invalid("n must be 1: this server returns one choice per request");
        }
        if (request.path("logprobs").asBoolean(false) || !request.path("top_logprobs").isMissingNode() && !request.path("top_logprobs").isNull()) {
            throw RejectedRequest.invalid("logprobs and top_logprobs are not returned by this server");
        }
    }

    /** Checks a request before any generation slot is taken. */
    BackendRequest validate(ChatRequest r) {
        if (r.messages().isEmpty()) throw RejectedRequest.invalid("messages must not be empty");
        if (r.model() != null && !r.model().isBlank() && !r.model().equals(backend.modelId())) {
            throw new RejectedRequest(404, "invalid_request_error", "the requested model is not served here; available: "
                    + backend.modelId());
        }
        RequestedSampling sampling;
        try {
            sampling = RequestedSampling.of(r);
        } catch (IllegalArgumentException e) {
            throw RejectedRequest.invalid(e.getMessage());
        }
        boolean json = r.responseFormat() != null && r.responseFormat().wantsJson();
        return new BackendRequest(actionMessages.toActionMessages(r.messages()), r.toolList(), sampling, json);
    }

    ChatResponse complete(BackendRequest request) {
        String id = nextId();
        BackendReply reply = backend.generate(request, piece -> { });
        AssistantTurn turn = actionMessages.readReply(reply.text());
        List<ChatToolCall> calls = new ArrayList<>();
        for (int i = 0; i < turn.calls().size(); i++) {
            calls.add(new ChatToolCall(callIdPrefix(id) + i, "function", turn.calls().get(i)));
        }
        ChatMessage message = new ChatMessage("assistant", turn.content(), calls, null, null, turn.reasoning());
        return new ChatResponse(id, "chat.completion", created(), backend.modelId(),
                List.of(new Choice(0, message, finishReason(reply, !calls.isEmpty()))),
                Usage.of(reply.promptTokens(), reply.completionTokens()));
    }

    /**
     * Generates while sending chunks: first the role, then text deltas, then the finish reason. The role goes out when
     * the backend first calls back (an empty piece once it has accepted the request, or its first text), so a request
     * it refuses at once fails before any chunk: a 400, not a stream that breaks off.
     */
    void stream(BackendRequest request, Consumer<ChatChunk> out) {
        String id = nextId();
        long created = created();
        ActionStreamer streamer = new ActionStreamer(actionMessages, backend.actionFormat().codec());
        boolean[] roleSent = {false};
        Consumer<ChatChunk> send = c -> {
            if (!roleSent[0]) {
                roleSent[0] = true;
                out.accept(chunk(id, created, new ChatDelta("assistant", null, null, null), null));
            }
            if (c != null) out.accept(c);
        };
        BackendReply reply = backend.generate(request, piece -> {
            send.accept(null);
            streamer.accept(piece).forEach(d -> send.accept(chunk(id, created, d, null)));
        });
        streamer.finish(callIdPrefix(id)).forEach(d -> send.accept(chunk(id, created, d, null)));
        String finish = finishReason(reply, !streamer.calls().isEmpty());
        send.accept(chunk(id, created, new ChatDelta(null, null, null, null), finish));
    }

    private ChatChunk chunk(String id, long created, ChatDelta delta, String finishReason) {
        return new ChatChunk(id, "chat.completion.chunk", created, backend.modelId(),
                List.of(new ChunkChoice(0, delta, finishReason)));
    }

    private static String finishReason(BackendReply reply, boolean calls) {
        if (reply.truncated()) return "length";
        return calls ? "tool_calls" : "stop";
    }

    private String nextId() {
        return "chatcmpl-" + sequence.incrementAndGet();
    }

    private static String callIdPrefix(String completionId) {
        return "call_" + completionId.substring("chatcmpl-".length()) + "_";
    }

    private long created() {
        return clock.millis() / 1000;
    }
}
