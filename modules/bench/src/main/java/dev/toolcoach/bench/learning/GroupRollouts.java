package dev.toolcoach.bench.learning;

import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * GRPO groups sampled in-process: G rollouts of each example through the agent loop, every rollout of
 * every group submitted at once (a batching engine decodes them together), each scored by the reward.
 * Each rollout has its own seed, derived from the base seed and its id
 * ({@link dev.toolcoach.agent.RolloutRequest#seededFrom}), so a group's rollouts differ yet every one is reproducible.
 */
public final class GroupRollouts {

    private final AgentLoop loop;
    private final long baseSeed;
    private final TraceReward reward;
    private final int groupSize;

    /** @param agent limits, format and sampling (temperature, base seed) of every rollout */
    public GroupRollouts(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                         AgentConfig agent, TraceReward reward, int groupSize) {
        if (groupSize < 2) throw new IllegalArgumentException("a GRPO group needs at least 2 rollouts, got " + groupSize);
        this.loop = new AgentLoop(tokenizer, chat, generator, CodeActEnvironment.forFormat(agent.actionFormat(), tools), agent);
        this.baseSeed = agent.sampling().seed();
        this.reward = reward;
        this.groupSize = groupSize;
    }

    /** One group per example, in example order; {@code round} makes the ids (and so the seeds) of this call unique. */
    public List<ScoredGroup> sample(List<TaskExample> examples, String round) {
        List<List<CompletableFuture<Trace>>> runs = new ArrayList<>();
        for (TaskExample example : examples) {
            List<CompletableFuture<Trace>> group = new ArrayList<>();
            for (int i = 0; i < groupSize; i++) {
                String rolloutId = round + "/" + example.id() + "/" + i;
                group.add(loop.run(example.rolloutRequest(rolloutId, round + "/" + example.id()).seededFrom(baseSeed))
                        .toCompletableFuture());
            }
            runs.add(group);
        }
        List<ScoredGroup> groups = new ArrayList<>();
        for (int g = 0; g < examples.size(); g++) {
            TaskExample example = examples.get(g);
            List<ScoredTrace> scored = runs.get(g).stream().map(CompletableFuture::join)
                    .map(t -> new ScoredTrace(t, reward.score(example, t))).toList();
            groups.add(new ScoredGroup(round + "/" + example.id(), scored));
        }
        return groups;
    }

    public int groupSize() {
        return groupSize;
    }
}
