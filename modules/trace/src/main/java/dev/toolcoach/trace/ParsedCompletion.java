package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * What the action parser made of one model completion (ToolBrain's {@code parsed_completion}).
 *
 * @param thought     the text inside {@code <think>}, or null
 * @param toolCalls   the calls asked for, possibly empty
 * @param toolCode    the raw text of the tool call block(s) as the model wrote it, or null
 * @param finalAnswer the text inside {@code <answer>}, or null
 * @param parseError  why the completion is not a valid action, or null when it is
 */
public record ParsedCompletion(String thought,
                               @JsonProperty("tool_calls") List<ToolCall> toolCalls,
                               @JsonProperty("tool_code") String toolCode,
                               @JsonProperty("final_answer") String finalAnswer,
                               @JsonProperty("parse_error") ParseError parseError) {
    public ParsedCompletion {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    @JsonIgnore
    public boolean valid() {
        return parseError == null;
    }

    public static ParsedCompletion error(String thought, String toolCode, ParseError error) {
        return new ParsedCompletion(thought, List.of(), toolCode, null, error);
    }
}
