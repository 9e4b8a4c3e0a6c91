package dev.toolcoach.coachnode;

import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.taskjob.JudgeChoice;
import picocli.CommandLine.Option;

/** An LLM judge as the training reward (a picocli mixin of {@code train}). */
final class JudgeOptions {

    @Option(names = "--judge-url", description = "train with an LLM judge as the reward: an OpenAI-compatible API root "
            + "(key: $OPENAI_API_KEY); the judge sees each group's rollouts, tool calls and outputs together")
    String url;

    @Option(names = "--judge-model", description = "the judge: the model id at --judge-url, or without it a local Hugging Face "
            + "model folder served on 127.0.0.1 while the job runs")
    String model;

    @Option(names = "--judge-mode", description = "ranking (ToolBrain: rewards linear in rank) or relative (RULER: a 0..1 score "
            + "per rollout relative to the group); default: ranking")
    String mode;

    /** The judge, or null when none was asked for. */
    JudgeChoice choice() {
        if (url == null && model == null) {
            if (mode != null) throw new IllegalArgumentException("--judge-mode needs a judge: give --judge-url or --judge-model");
            return null;
        }
        return new JudgeChoice(mode, new ModelEndpoint(url, model));
    }
}
