package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;
import java.util.Objects;

/**
 * What Zero-Learn is asked to generate.
 *
 * @param taskDescription what the agent should learn to do
 * @param numExamples     how many queries to keep
 * @param minToolCalls    least number of tool calls a query must need
 * @param maxWords        most words a query may have
 * @param guidanceExample an example query showing the wanted style, or null
 * @param tools           the tools the agent will have, with their full specifications
 * @param selfRank        whether the model ranks the kept queries afterwards
 */
public record ZeroLearnRequest(String taskDescription, int numExamples, int minToolCalls, int maxWords,
                               String guidanceExample, List<ToolSpec> tools, boolean selfRank) {
    public ZeroLearnRequest {
        if (taskDescription == null || taskDescription.isBlank()) {
            throw new IllegalArgumentException("the task description must not be blank");
        }
        if (numExamples < 1) throw new IllegalArgumentException("numExamples must be >= 1, got " + numExamples);
        if (minToolCalls < 0) throw new IllegalArgumentException("minToolCalls must be >= 0, got " + minToolCalls);
        if (maxWords < 1) throw new IllegalArgumentException("maxWords must be >= 1, got " + maxWords);
        Objects.requireNonNull(tools, "tools");
        tools = List.copyOf(tools);
        if (tools.isEmpty()) throw new IllegalArgumentException("Zero-Learn needs at least one tool to generate queries for");
        guidanceExample = guidanceExample == null || guidanceExample.isBlank() ? null : guidanceExample.strip();
    }
}
