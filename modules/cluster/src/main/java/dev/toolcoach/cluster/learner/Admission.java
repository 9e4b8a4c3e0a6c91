package dev.toolcoach.cluster.learner;

/** What the collector did with one offered trace. */
public enum Admission {
    /** Kept; its group still waits for more traces. */
    WAITING,
    /** Already seen (same rollout id) or its group is closed: discarded and counted. */
    DUPLICATE,
    /** It completed its group, which is now ready for training. */
    GROUP_READY,
    /** It completed its group, which was too old for the current policy: dropped and counted. */
    GROUP_STALE,
    /** It completed its group, which holds a trace the learner cannot train on: dropped and counted. */
    GROUP_UNUSABLE
}
