package dev.toolcoach.retrieval.llm;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.ChatMessage;

import java.util.List;

/**
 * The tool-selection prompt (after ToolBrain's LLM tool retriever): the user's query and each
 * candidate's name and description, asking for the relevant names as a JSON list, best first.
 */
final class SelectionPrompt {

    private static final String SYSTEM = """
            You choose the tools an assistant needs to answer a user's request. You are given the \
            request and a list of available tools with their descriptions. Reply with a JSON list of \
            the names of the tools needed, most relevant first, for example ["tool_a", "tool_b"]. \
            Use the names exactly as listed. Reply [] if no tool is relevant. Reply with the list only.""";

    private final String system;
    private final int maxDescriptionChars;

    SelectionPrompt(FilterSettings settings) {
        this.system = settings.guidelines().isBlank() ? SYSTEM : SYSTEM + "\n\nGuidelines:\n" + settings.guidelines().strip();
        this.maxDescriptionChars = settings.maxDescriptionChars();
    }

    List<ChatMessage> messages(String query, List<ToolSpec> candidates, int limit) {
        StringBuilder user = new StringBuilder("Request: ").append(query.strip()).append("\n\nAvailable tools:\n");
        for (ToolSpec tool : candidates) {
            user.append("- ").append(tool.name()).append(": ").append(shortened(tool.description())).append('\n');
        }
        user.append("\nWhich of these tools are needed for the request? Name at most ").append(limit).append('.');
        return List.of(ChatMessage.system(system), ChatMessage.user(user.toString()));
    }

    private String shortened(String description) {
        String oneLine = description.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= maxDescriptionChars ? oneLine : oneLine.substring(0, maxDescriptionChars) + "...";
    }
}
