package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.rewards.judge.JudgeMode;

import java.util.Objects;

/**
 * An LLM judge as the job's training reward ({@code train --judge-url URL | --judge-model DIR --judge-mode M}; the
 * {@code judge} field of {@code POST /jobs}). Evaluations still score with the task's reward.
 *
 * @param mode     ranking (ToolBrain; default) or relative (RULER)
 * @param endpoint the judge model
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JudgeChoice(String mode, ModelEndpoint endpoint) {

    public JudgeChoice {
        Objects.requireNonNull(endpoint, "a judge needs an endpoint: --judge-url or --judge-model");
    }

    /** @throws IllegalArgumentException naming an unknown mode */
    public JudgeMode judgeMode() {
        return JudgeMode.parse(mode == null ? "ranking" : mode);
    }
}
