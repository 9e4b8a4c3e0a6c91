package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.agent.ToolSpec;

import java.util.stream.Collectors;

/** The prompts that ask the model for queries, built from the full tool specifications. */
final class GenerationPrompt {

    private GenerationPrompt() {
    }

    static String system() {
        return """
                You write training tasks for an AI agent that solves user requests by calling tools.
                Reply with a single JSON object and nothing else, in exactly this shape:
                {"queries": [{"query": "the user request", "gold_answer": "the correct final answer, or null if unknown",
                  "tool_calls": [{"name": "tool name", "arguments": {"parameter": "value"}}]}]}
                "tool_calls" lists, in order, every tool call an agent needs to answer the query, with concrete
                arguments that follow each tool's parameter schema.""";
    }

    static String user(ZeroLearnRequest request, int count) {
        String tools = request.tools().stream().map(t -> t.toJson().toString()).collect(Collectors.joining("\n"));
        StringBuilder p = new StringBuilder()
                .append("Task the agent must learn: ").append(request.taskDescription().strip()).append("\n\n")
                .append("Tools available to the agent (name, description, JSON schema of the parameters):\n")
                .append(tools).append("\n\n")
                .append("Write ").append(count).append(" different user queries for this task. Rules:\n")
                .append("- each query needs at least ").append(request.minToolCalls())
                .append(" tool call(s) to answer, and \"tool_calls\" lists them;\n")
                .append("- each query has at most ").append(request.maxWords()).append(" words;\n")
                .append("- use only the tools above, with every required argument and no undeclared ones;\n")
                .append("- be concrete: give the numbers, names and dates the tools need;\n")
                .append("- give the gold answer when it can be known, else null.\n");
        if (request.guidanceExample() != null) {
            p.append("\nAn example of the kind of query wanted:\n").append(request.guidanceExample()).append('\n');
        }
        return p.toString();
    }

    /** One line per tool for the ranking prompt, where the full schema would crowd out the queries. */
    static String toolNames(Iterable<ToolSpec> tools) {
        StringBuilder s = new StringBuilder();
        for (ToolSpec t : tools) s.append("- ").append(t.name()).append(": ").append(t.description()).append('\n');
        return s.toString();
    }
}
