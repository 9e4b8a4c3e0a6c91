package dev.toolcoach.learn.loss;

/** The denominator of the GRPO importance ratio. */
public enum RatioBaseline {
    /** The log-prob recorded by the policy that sampled the token: correct under asynchrony. */
    BEHAVIOUR,
    /**
     * The current policy's own (detached) log-prob: the ratio is always 1, every token is treated as
     * on-policy and staleness is ignored. This is the faulty scheme of ToolBrain, kept for comparison.
     */
    CURRENT_POLICY
}
