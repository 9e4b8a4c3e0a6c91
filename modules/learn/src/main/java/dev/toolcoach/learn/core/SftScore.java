package dev.toolcoach.learn.core;

/**
 * Held-out demonstrations scored by the current weights, without an update.
 *
 * @param loss    mean negative log-likelihood per generated token
 * @param entropy mean entropy (nats) of the next-token distribution at each generated token: how much the policy
 *                would still explore there when sampling at temperature 1
 * @param tokens  generated tokens scored
 */
public record SftScore(double loss, double entropy, long tokens) {
}
