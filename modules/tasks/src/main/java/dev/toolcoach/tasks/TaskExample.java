package dev.toolcoach.tasks;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One query of a task with everything needed to score and to teach it.
 *
 * @param id         unique within the task
 * @param messages   the conversation given to the agent, ending with the user's query (earlier
 *                   turns only for steps cut out of multi-turn datasets)
 * @param tools      tools the example itself offers (function-calling datasets); empty when the
 *                   task's tool suites provide them
 * @param goldAnswer the correct final answer (for call-only examples, the gold calls as text)
 * @param solution   the oracle's ideal turns, in order
 * @param gold       further gold facts for rewards (e.g. {@code message_ids}), JSON-shaped; copied
 *                   into the rollout's trace metadata
 */
public record TaskExample(String id, List<Message> messages, List<ToolSpec> tools, String goldAnswer,
                          List<OracleStep> solution, Map<String, Object> gold) {

    public TaskExample {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(goldAnswer, "goldAnswer");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) throw new IllegalArgumentException("example " + id + " has no messages");
        tools = List.copyOf(tools);
        solution = List.copyOf(solution);
        gold = Collections.unmodifiableMap(new LinkedHashMap<>(gold));
    }

    /** A one-question example answered with the task's tool suites. */
    public static TaskExample question(String id, String query, String goldAnswer, List<OracleStep> solution,
                                       Map<String, Object> gold) {
        return new TaskExample(id, List.of(Message.user(query)), List.of(), goldAnswer, solution, gold);
    }

    /** The user's query: the content of the last user message. */
    public String query() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) return messages.get(i).content();
        }
        return messages.get(messages.size() - 1).content();
    }

    /**
     * A rollout of this example's query whose trace metadata carries the gold facts and {@code gold_answer}, for rewards;
     * it offers the example's own tools when it has any, else every tool of the agent's environment.
     */
    public RolloutRequest rolloutRequest(String rolloutId, String groupId) {
        Map<String, Object> metadata = new LinkedHashMap<>(gold);
        metadata.put("gold_answer", goldAnswer);
        return new RolloutRequest(rolloutId, groupId, id, query(), metadata).withTools(tools);
    }

    /** This example offering {@code offered} as its tools (e.g. the few a retriever chose for its query). */
    public TaskExample withTools(List<ToolSpec> offered) {
        return new TaskExample(id, messages, offered, goldAnswer, solution, gold);
    }

    /** The tools the oracle calls, in order, a name per call; empty when it answers without calling. */
    public List<String> oracleTools() {
        return solution.stream().flatMap(step -> step.calls().stream()).map(ToolCall::name).toList();
    }

    /** The oracle's turns as model completions in {@code format}, what a scripted teacher replays. */
    public List<String> oracleCompletions(ActionFormat format) {
        return solution.stream().map(step -> step.completion(format)).toList();
    }
}
