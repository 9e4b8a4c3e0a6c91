package dev.toolcoach.brain.taskjob;

import java.util.Locale;

/** How the main job's rollouts and learner steps interleave; the request's {@code mode}. */
public enum TrainingMode {
    /** Rollouts go on while the learner trains: a policy lag of 1. */
    ASYNC(1),
    /** Roll out a batch, train, broadcast, repeat: a policy lag of 0, which a seed repeats exactly. */
    SYNC(0, false),
    /**
     * {@link #SYNC} with every turn of a batch's rollouts in lockstep: each waits at each turn for the slowest reply and
     * tool call of the batch (VerlTool's synchronous baseline), for measuring what asynchrony buys. Every rollout
     * samples from the same seed and adapter version as in {@link #SYNC}; only the engine's batches differ.
     */
    TURN_BARRIER(0, true);

    private final int maxPolicyLag;
    private final boolean turnBarrier;

    TrainingMode(int maxPolicyLag) {
        this(maxPolicyLag, false);
    }

    TrainingMode(int maxPolicyLag, boolean turnBarrier) {
        this.maxPolicyLag = maxPolicyLag;
        this.turnBarrier = turnBarrier;
    }

    /**
     * @param name case-insensitive ({@code async}, {@code SYNC}, ...)
     * @throws IllegalArgumentException naming the valid modes
     */
    public static TrainingMode parse(String name) {
        return switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "async" -> ASYNC;
            case "sync" -> SYNC;
            case "turn-barrier" -> TURN_BARRIER;
            default -> throw new IllegalArgumentException("unknown mode '" + name + "'; valid: async, sync, turn-barrier");
        };
    }

    /** The job's policy lag in this mode. */
    public int maxPolicyLag() {
        return maxPolicyLag;
    }

    /** Whether the mode holds a batch's rollouts at each turn ({@code TrainingConfig.Batching#turnBarrier}). */
    public boolean turnBarrier() {
        return turnBarrier;
    }

    /** As requests and a run's {@code config.json} write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
