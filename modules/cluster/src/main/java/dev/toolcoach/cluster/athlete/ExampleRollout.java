package dev.toolcoach.cluster.athlete;

import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.cluster.protocol.AssignRollout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an assigned example, in the task dataset's JSON shape ({@code id, messages, tools,
 * gold_answer, solution, gold}) or the short {@code {query, ...}} shape, into the agent's
 * {@link RolloutRequest}: the query is the last user message (else the {@code query} field), and the
 * gold facts go into the trace's metadata for the reward.
 */
final class ExampleRollout {

    private ExampleRollout() {
    }

    /** @throws IllegalArgumentException naming the rollout when the example holds no query */
    static RolloutRequest toRequest(AssignRollout assignment) {
        Map<String, Object> example = assignment.example();
        Map<String, Object> metadata = new LinkedHashMap<>();
        if (example.get("gold") instanceof Map<?, ?> gold) gold.forEach((k, v) -> metadata.put(String.valueOf(k), v));
        if (example.get("gold_answer") != null) metadata.put("gold_answer", example.get("gold_answer"));
        return new RolloutRequest(assignment.rolloutId(), assignment.groupId(), assignment.queryId(), query(assignment),
                metadata);
    }

    private static String query(AssignRollout assignment) {
        Map<String, Object> example = assignment.example();
        if (example.get("messages") instanceof List<?> messages) {
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (messages.get(i) instanceof Map<?, ?> m && "user".equals(m.get("role")) && m.get("content") instanceof String s) {
                    return s;
                }
            }
        }
        if (example.get("query") instanceof String s) return s;
        throw new IllegalArgumentException("rollout " + assignment.rolloutId() + " (query " + assignment.queryId()
                + "): the example has neither a user message in 'messages' nor a 'query' string; fields: "
                + example.keySet());
    }
}
