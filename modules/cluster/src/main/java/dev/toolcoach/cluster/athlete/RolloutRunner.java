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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs assigned rollouts through one agent loop (parser, tool runner and system prompt built once) and
 * yields their traces.
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
    private final Duration gateTimeout;

    /**
     * @param gate         a rollout first waits until the engine holds the assignment's policy version minus
     *                     {@code maxPolicyLag}, at most {@code gateTimeout} (then it runs anyway: the learner judges it)
     */
    public RolloutRunner(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                         AgentConfig config, Executor executor, PolicyGate gate, int maxPolicyLag, Duration gateTimeout) {
        this.loop = new AgentLoop(tokenizer, chat, generator, CodeActEnvironment.forFormat(config.actionFormat(), tools), config, executor);
        this.baseSeed = config.sampling().seed();
        this.gate = Objects.requireNonNull(gate, "gate");
        this.maxPolicyLag = maxPolicyLag;
        this.gateTimeout = Objects.requireNonNull(gateTimeout, "gateTimeout");
    }

    public CompletionStage<Trace> run(AssignRollout assignment) {
        RolloutRequest request = assignment.example().rolloutRequest(assignment.rolloutId(), assignment.groupId())
                .seededFrom(baseSeed);
        int needed = assignment.policyVersion() - maxPolicyLag;
        return gate.atLeast(needed).toCompletableFuture()
                .orTimeout(gateTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((reached, late) -> {
                    if (late != null) {
                        LOG.warn("rollout {} starts on an adapter older than version {}: none arrived within {}",
                                assignment.rolloutId(), needed, gateTimeout);
                    }
                    return null;
                })
                .thenCompose(ignored -> loop.run(request));
    }
}
