package dev.toolcoach.rewards;

import dev.toolcoach.tasks.TraceReward;

/**
 * A reward a user ships in a jar on the classpath, chosen by its name ({@code train --reward NAME}, {@code reward} of a
 * job request): a class with a public no-argument constructor, listed in
 * {@code META-INF/services/dev.toolcoach.rewards.RewardProvider}, found by {@link java.util.ServiceLoader}. Its reward
 * is the interface the Brain's reward lambdas implement; one that throws or answers a non-finite score drops that group,
 * counted, and the job goes on.
 */
public interface RewardProvider {

    /** The name a job chooses it by: not one of the built-in rewards' names. */
    String name();

    /** The reward: 1 for a rollout that solved its example, as evaluation counts accuracy by it. */
    TraceReward reward();
}
