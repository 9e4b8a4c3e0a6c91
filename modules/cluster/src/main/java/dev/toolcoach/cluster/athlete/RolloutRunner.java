package dev.toolcoach.cluster.athlete;

import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.trace.Trace;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs assigned rollouts through one agent loop (parser, tool runner and system prompt built once) and
 * yields their traces.
 *
 * <p>A rollout may run for the job's rollout timeout from when its agent loop starts; still running then, the loop
 * stops it (no further turn or tool call, its trajectory released, so the tool servers cancel its calls) and it yields
 * no trace. The coach's deadline, the same timeout counted from dispatch, has passed by then and sent the rollout to
 * another athlete: a late trace would only be a duplicate, or a cut-off run the learner must not train on.
 *
 * <p>Each rollout samples with its own seed, derived from the base seed of the agent's sampling and the
 * rollout id ({@link RolloutRequest#seededFrom}), so the G rollouts of a group differ yet every rollout is
 * reproducible. Thread-safe.
 */
public final class RolloutRunner {
    private static final Logger LOG = LoggerFactory.getLogger(RolloutRunner.class);

    private final AgentLoop loop;
    private final long baseSeed;
    private final PolicyGate gate;
    private final int maxPolicyLag;
    private final Duration rolloutTimeout;

    /**
     * @param gate           a rollout first waits until the engine holds the assignment's policy version minus
     *                       {@code maxPolicyLag}, at most {@code rolloutTimeout} (then it runs anyway: the learner
     *                       judges it)
     * @param rolloutTimeout the job's rollout timeout ({@code JobSpec.gateTimeout}, the coach's
     *                       {@code rolloutTimeout}): the longest a rollout waits at the gate, then the longest it runs
     */
    public RolloutRunner(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                         AgentConfig config, Executor executor, PolicyGate gate, int maxPolicyLag,
                         Duration rolloutTimeout) {
        this.loop = new AgentLoop(tokenizer, chat, generator, CodeActEnvironment.forFormat(config.actionFormat(), tools), config, executor);
        this.baseSeed = config.sampling().seed();
        this.gate = Objects.requireNonNull(gate, "gate");
        this.maxPolicyLag = maxPolicyLag;
        this.rolloutTimeout = Objects.requireNonNull(rolloutTimeout, "rolloutTimeout");
    }

    /** The rollout's trace, or empty when it was stopped at its deadline. */
    public CompletionStage<Optional<Trace>> run(AssignRollout assignment) {
        RolloutRequest request = assignment.example().rolloutRequest(assignment.rolloutId(), assignment.groupId())
                .seededFrom(baseSeed);
        int needed = assignment.policyVersion() - maxPolicyLag;
        return gate.atLeast(needed).toCompletableFuture()
                .orTimeout(rolloutTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((reached, late) -> {
                    if (late != null) {
                        LOG.warn("rollout {} starts on an adapter older than version {}: none arrived within {}",
                                assignment.rolloutId(), needed, rolloutTimeout);
                    }
                    return null;
                })
                .thenCompose(ignored -> loop.run(request, rolloutTimeout))
                .handle((trace, failure) -> {
                    if (failure == null) return Optional.of(trace);
                    if (AgentLoop.stoppedAtLimit(failure)) return Optional.<Trace>empty();
                    throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                });
    }
}
