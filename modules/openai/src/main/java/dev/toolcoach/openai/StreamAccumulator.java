package dev.toolcoach.openai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Folds the chunks of a streamed reply (first choice) into the reply a non-streaming call would give. */
final class StreamAccumulator {

    private String id;
    private String model;
    private long created;
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final Map<Integer, CallParts> calls = new TreeMap<>();
    private String finishReason;
    private boolean sawChoice;

    void accept(ChatChunk chunk) {
        if (id == null) {
            id = chunk.id();
            model = chunk.model();
            created = chunk.created();
        }
        for (ChunkChoice choice : chunk.choices()) {
            if (choice.index() != 0) continue;
            sawChoice = true;
            ChatDelta delta = choice.delta();
            if (delta != null) {
                if (delta.content() != null) content.append(delta.content());
                if (delta.reasoningContent() != null) reasoning.append(delta.reasoningContent());
                if (delta.toolCalls() != null) delta.toolCalls().forEach(this::acceptCall);
            }
            if (choice.finishReason() != null) finishReason = choice.finishReason();
        }
    }

    private void acceptCall(ToolCallDelta d) {
        CallParts parts = calls.computeIfAbsent(d.index(), i -> new CallParts());
        if (d.id() != null) parts.id = d.id();
        if (d.function() != null) {
            if (d.function().name() != null) parts.name = d.function().name();
            if (d.function().arguments() != null) parts.arguments.append(d.function().arguments());
        }
    }

    boolean sawChoice() {
        return sawChoice;
    }

    ChatResponse result() {
        List<ChatToolCall> toolCalls = new ArrayList<>();
        calls.values().forEach(p -> toolCalls.add(new ChatToolCall(p.id, "function",
                new FunctionCall(p.name, p.arguments.toString()))));
        ChatMessage message = new ChatMessage("assistant",
                content.length() == 0 && !toolCalls.isEmpty() ? null : content.toString(),
                toolCalls, null, null, reasoning.length() == 0 ? null : reasoning.toString());
        return new ChatResponse(id, "chat.completion", created, model,
                List.of(new Choice(0, message, finishReason)), null);
    }

    private static final class CallParts {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }
}
