package dev.toolcoach.learn.loss;

/** The preference loss applied to the implicit reward margin h. */
public enum DpoVariant {
    /** -log sigmoid(beta h), with optional label smoothing (conservative DPO). */
    SIGMOID,
    /** (h - 1 / (2 beta))^2 on length-averaged log-probs (IPO). */
    IPO
}
