package dev.toolcoach.openai;

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

    /** Checks a request before any generation slot is taken. */
    BackendRequest validate(ChatRequest r) {
        if (r.messages().isEmpty()) throw RejectedRequest.invalid("messages must not be empty");
        if (r.model() != null && !r.model().isBlank() && !r.model().equals(backend.modelId())) {
            throw new RejectedRequest(404, "invalid_request_error", "model '" + r.model()
                    + "' is not served here; available: " + backend.modelId());
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

    /** Generates while sending chunks: first the role, then text deltas, then the finish reason. */
    void stream(BackendRequest request, Consumer<ChatChunk> out) {
        String id = nextId();
        long created = created();
        ActionStreamer streamer = new ActionStreamer(actionMessages, backend.actionFormat().codec());
        out.accept(chunk(id, created, new ChatDelta("assistant", null, null, null), null));
        BackendReply reply = backend.generate(request,
                piece -> streamer.accept(piece).forEach(d -> out.accept(chunk(id, created, d, null))));
        streamer.finish(callIdPrefix(id)).forEach(d -> out.accept(chunk(id, created, d, null)));
        String finish = finishReason(reply, !streamer.calls().isEmpty());
        out.accept(chunk(id, created, new ChatDelta(null, null, null, null), finish));
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
