package dev.toolcoach.brain.zerolearn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.ResponseFormat;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Asks the model to rank the kept queries, best first, by fit to the task description, correct use
 * of tool arguments and concreteness. A reply that is not a full ranking (missing, repeated or
 * unknown numbers) is retried; after the last attempt the caller keeps the unranked order.
 */
final class SelfRanker {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final OpenAiClient client;
    private final int attempts;

    SelfRanker(OpenAiClient client, int attempts) {
        if (attempts < 1) throw new IllegalArgumentException("ranking attempts must be >= 1, got " + attempts);
        this.client = client;
        this.attempts = attempts;
    }

    /** The outcome: the order (indices into the queries, best first) if one was usable, and the replies that were not. */
    record Outcome(Optional<List<Integer>> order, int unusableReplies) {
    }

    Outcome rank(ZeroLearnRequest request, List<GeneratedQuery> queries) {
        ChatRequest ask = ChatRequest.of(List.of(ChatMessage.system(system()), ChatMessage.user(prompt(request, queries))))
                .withResponseFormat(ResponseFormat.jsonObject()).withTemperature(0.0);
        int unusable = 0;
        for (int attempt = 0; attempt < attempts; attempt++) {
            Optional<List<Integer>> order = parse(client.chat(ask).text(), queries.size());
            if (order.isPresent()) return new Outcome(order, unusable);
            unusable++;
        }
        return new Outcome(Optional.empty(), unusable);
    }

    /** A permutation of 0..n-1 from {@code {"ranking": [...]}}; numbers may be JSON numbers or numeric strings. */
    static Optional<List<Integer>> parse(String reply, int n) {
        Optional<JsonNode> root = JsonReply.object(reply);
        if (root.isEmpty() || !root.get().path("ranking").isArray()) return Optional.empty();
        List<Integer> order = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (JsonNode item : root.get().get("ranking")) {
            Integer index = index(item);
            if (index == null || index < 0 || index >= n || !seen.add(index)) return Optional.empty();
            order.add(index);
        }
        return order.size() == n ? Optional.of(List.copyOf(order)) : Optional.empty();
    }

    private static Integer index(JsonNode item) {
        if (item.isIntegralNumber()) return item.asInt();
        if (item.isTextual() && item.asText().strip().matches("\\d{1,9}")) return Integer.parseInt(item.asText().strip());
        return null;
    }

    private static String system() {
        return """
                You judge training tasks for a tool-using AI agent. Rank the numbered queries from best to worst by:
                1. fit to the task description, 2. correct use of the tools' arguments, 3. concreteness.
                Reply with a single JSON object and nothing else: {"ranking": [numbers of all queries, best first]}.
                Every number must appear exactly once.""";
    }

    private static String prompt(ZeroLearnRequest request, List<GeneratedQuery> queries) {
        StringBuilder p = new StringBuilder("Task description: ").append(request.taskDescription().strip())
                .append("\n\nTools:\n").append(GenerationPrompt.toolNames(request.tools())).append("\nQueries:\n");
        for (int i = 0; i < queries.size(); i++) {
            GeneratedQuery q = queries.get(i);
            p.append(i).append(". ").append(q.query()).append("\n   intended calls: ");
            List<String> calls = new ArrayList<>();
            for (ToolCall c : q.intendedCalls()) calls.add(c.name() + " " + MAPPER.valueToTree(c.arguments()));
            p.append(calls.isEmpty() ? "none" : String.join("; ", calls)).append('\n');
        }
        return p.toString();
    }
}
