package dev.toolcoach.openai;

import java.util.List;

/**
 * An assistant turn read from the action format: thinking, visible content, and tool calls whose
 * arguments are serialised JSON objects.
 */
record AssistantTurn(String reasoning, String content, List<FunctionCall> calls) {
    AssistantTurn {
        calls = List.copyOf(calls);
    }
}
