package dev.toolcoach.agent;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import java.util.concurrent.CompletionStage;

/** The model side of the agent loop: an inference engine, local or on the athlete's node. */
public interface Generator {

    /** Generates one reply; the stage fails only on an unrecoverable engine error. */
    CompletionStage<Generation> generate(GenerationRequest request);

    /** Lets the engine drop any cached state of a finished trajectory. */
    default void release(String trajectoryId) {
    }
}
