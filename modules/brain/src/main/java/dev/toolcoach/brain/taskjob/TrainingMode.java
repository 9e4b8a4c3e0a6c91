package dev.toolcoach.brain.taskjob;

import java.util.Locale;

/** How the main job's rollouts and learner steps interleave; the request's {@code mode}. */
public enum TrainingMode {
    /** Rollouts go on while the learner trains: a policy lag of 1. */
    ASYNC(1),
    /** Roll out a batch, train, broadcast, repeat: a policy lag of 0, which a seed repeats exactly. */
    SYNC(0);

    private final int maxPolicyLag;

    TrainingMode(int maxPolicyLag) {
        this.maxPolicyLag = maxPolicyLag;
    }

    /**
     * @param name case-insensitive ({@code async}, {@code SYNC}, ...)
     * @throws IllegalArgumentException naming the valid modes
     */
    public static TrainingMode parse(String name) {
        return switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "async" -> ASYNC;
            case "sync" -> SYNC;
            default -> throw new IllegalArgumentException("unknown mode '" + name + "'; valid: async, sync");
        };
    }

    /** The job's policy lag in this mode. */
    public int maxPolicyLag() {
        return maxPolicyLag;
    }

    /** As requests and a run's {@code config.json} write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
