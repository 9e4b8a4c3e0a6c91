package dev.toolcoach.cluster.athlete;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a rollout waits for before it starts: the athlete's engine holding a recent enough policy. With
 * it, a rollout assigned after version v was trained is not sampled by a much older adapter that the
 * learner would only drop as stale (after a restart, or in the synchronous mode, where the lag is 0).
 */
@FunctionalInterface
public interface PolicyGate {

    /** Completes once the engine samples with adapter {@code version} or newer. */
    CompletionStage<?> atLeast(int version);

    /** For generators without adapters (scripted models): every rollout starts at once. */
    PolicyGate OPEN = version -> CompletableFuture.completedFuture(null);
}
