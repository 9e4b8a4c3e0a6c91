package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Token counts of one completion. */
public record Usage(@JsonProperty("prompt_tokens") int promptTokens,
                    @JsonProperty("completion_tokens") int completionTokens,
                    @JsonProperty("total_tokens") int totalTokens) {

    public static Usage of(int prompt, int completion) {
        return new Usage(prompt, completion, prompt + completion);
    }
}
