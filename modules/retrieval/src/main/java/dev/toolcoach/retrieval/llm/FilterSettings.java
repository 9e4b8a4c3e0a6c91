package dev.toolcoach.retrieval.llm;

import java.util.Objects;

/**
 * How the LLM filter asks its model.
 *
 * @param guidelines          selection rules added to the prompt (ToolBrain's retrieval guidelines), may be empty
 * @param maxDescriptionChars each candidate's description is cut to this length in the prompt (bounds the prompt)
 * @param maxReplyTokens      completion budget for the reply
 */
public record FilterSettings(String guidelines, int maxDescriptionChars, int maxReplyTokens) {

    public static final String DEFAULT_GUIDELINES = """
            1. Focus on what the request needs done.
            2. Include every tool the request needs, including for several steps.
            3. Leave out tools that are merely on a related topic.""";

    public FilterSettings {
        Objects.requireNonNull(guidelines, "guidelines");
        if (maxDescriptionChars < 1) throw new IllegalArgumentException("maxDescriptionChars must be >= 1, got " + maxDescriptionChars);
        if (maxReplyTokens < 1) throw new IllegalArgumentException("maxReplyTokens must be >= 1, got " + maxReplyTokens);
    }

    public static FilterSettings defaults() {
        return new FilterSettings(DEFAULT_GUIDELINES, 300, 512);
    }
}
