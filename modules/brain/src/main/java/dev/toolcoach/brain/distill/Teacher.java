package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.tasks.TaskExample;

/** Where demonstrations come from: an OpenAI-compatible endpoint, a task's oracle, or any local generator. */
public interface Teacher {

    /** Identifies the teacher in the trace cache key: the same id must mean the same demonstrations. */
    String id();

    /**
     * The model side of the agent loop for one rollout of {@code example}.
     *
     * @param format       the student's action format: the teacher's turns come back written in it
     * @param systemPrompt the system prompt the student's agent loop starts with
     */
    Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt);

    /**
     * Throws when the teacher cannot be used at all (unreachable, key rejected), so distillation
     * stops with that reason instead of counting every rollout as a failure.
     */
    default void checkUsable() {
    }
}
