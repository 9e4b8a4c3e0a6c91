package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One step of an agent's run, field-compatible with ToolBrain's {@code Turn}.
 *
 * @param promptForModel        the exact text the model was conditioned on for this turn
 * @param modelCompletion       the exact text the model produced
 * @param parsedCompletion      what the parser made of it
 * @param toolOutput            the observation text appended after the completion, or null
 * @param actionOutput          every tool result of this turn, structured
 * @param formattedConversation the conversation as chat messages up to and including this turn
 * @param tokenStart            index in the trace's token record where this turn's completion starts
 * @param tokenEnd              index one past the end of this turn's tokens (completion and observation)
 */
public record Turn(@JsonProperty("prompt_for_model") String promptForModel,
                   @JsonProperty("model_completion") String modelCompletion,
                   @JsonProperty("parsed_completion") ParsedCompletion parsedCompletion,
                   @JsonProperty("tool_output") String toolOutput,
                   @JsonProperty("action_output") List<ToolResult> actionOutput,
                   @JsonProperty("formatted_conversation") List<Message> formattedConversation,
                   @JsonProperty("token_start") int tokenStart,
                   @JsonProperty("token_end") int tokenEnd) {
    public Turn {
        actionOutput = actionOutput == null ? List.of() : List.copyOf(actionOutput);
        formattedConversation = formattedConversation == null ? List.of() : List.copyOf(formattedConversation);
    }
}
