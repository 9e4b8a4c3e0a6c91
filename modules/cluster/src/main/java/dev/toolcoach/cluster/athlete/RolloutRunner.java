package dev.toolcoach.cluster.athlete;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.cluster.protocol.AssignRollout;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one assigned rollout through the agent loop and always yields its trace: an example without a
 * query becomes an ERROR trace (so the learner still hears of the rollout and the group is scored,
 * rather than the rollout coming back forever after each deadline).
 *
 * <p>Each rollout samples with its own seed, derived from the base seed and the rollout id, so the
 * G rollouts of a group differ yet every rollout is reproducible. Thread-safe.
 */
public final class RolloutRunner {
    private static final Logger LOG = LoggerFactory.getLogger(RolloutRunner.class);

    private final Tokenizer tokenizer;
    private final ChatFormat chat;
    private final Generator generator;
    private final ToolEnvironment tools;
    private final AgentConfig config;
    private final Executor executor;
    private final PolicyGate gate;
    private final int maxPolicyLag;
    private final Duration gateTimeout;

    /**
     * @param gate         a rollout first waits until the engine holds the assignment's policy version minus
     *                     {@code maxPolicyLag}, at most {@code gateTimeout} (then it runs anyway: the learner judges it)
     */
    public RolloutRunner(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                         AgentConfig config, Executor executor, PolicyGate gate, int maxPolicyLag, Duration gateTimeout) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.chat = Objects.requireNonNull(chat, "chat");
        this.generator = Objects.requireNonNull(generator, "generator");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.config = Objects.requireNonNull(config, "config");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.maxPolicyLag = maxPolicyLag;
        this.gateTimeout = Objects.requireNonNull(gateTimeout, "gateTimeout");
    }

    public CompletionStage<Trace> run(AssignRollout assignment) {
        RolloutRequest request;
        try {
            request = ExampleRollout.toRequest(assignment);
        } catch (IllegalArgumentException badExample) {
            return CompletableFuture.completedFuture(new Trace(assignment.rolloutId(), assignment.groupId(),
                    assignment.queryId(), "", null, null, null, Termination.ERROR, badExample.getMessage(),
                    System.currentTimeMillis(), 0, Map.of()));
        }
        long needed = assignment.policyVersion() - maxPolicyLag;
        return gate.atLeast(needed).toCompletableFuture()
                .orTimeout(gateTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((reached, late) -> {
                    if (late != null) {
                        LOG.warn("rollout {} starts on an adapter older than version {}: none arrived within {}",
                                assignment.rolloutId(), needed, gateTimeout);
                    }
                    return null;
                })
                .thenCompose(ignored -> new AgentLoop(tokenizer, chat, generator, tools, seededFor(assignment.rolloutId()),
                        executor).run(request));
    }

    private AgentConfig seededFor(String rolloutId) {
        SamplingParams s = config.sampling();
        long seed = s.seed() * 31 + rolloutId.hashCode();
        return new AgentConfig(config.actionFormat(), new SamplingParams(s.temperature(), s.topK(), s.topP(),
                s.maxNewTokens(), seed), config.maxTurns(), config.maxTotalTokens(), config.toolTimeout(),
                config.toolOutputCap());
    }
}
