package dev.toolcoach.bench.learning;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.tasks.TaskExample;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Synchronous GRPO in one JVM: sample the groups with the current adapter, train the learner's LoRA
 * adapter on them, publish the new adapter (e.g. {@code engine::setAdapter}) before the next round.
 */
public final class LocalGrpo {

    /** What one step did. */
    public record Step(List<ScoredGroup> groups, GrpoMetrics metrics, long rolloutMillis, long trainMillis) {
        public int rollouts() {
            return groups.stream().mapToInt(g -> g.traces().size()).sum();
        }

        public double meanReward() {
            return groups.stream().flatMapToDouble(g -> Arrays.stream(g.rewards())).average().orElse(0);
        }
    }

    private final GroupRollouts rollouts;
    private final LearnerCore learner;
    private final LoraAdapter adapter;
    private final Consumer<AdapterWeights> publish;

    /** @param adapter the learner's trainable adapter, whose snapshot is published after each step */
    public LocalGrpo(GroupRollouts rollouts, LearnerCore learner, LoraAdapter adapter, Consumer<AdapterWeights> publish) {
        this.rollouts = rollouts;
        this.learner = learner;
        this.adapter = adapter;
        this.publish = publish;
    }

    public Step step(List<TaskExample> examples, String round) {
        long t0 = System.nanoTime();
        List<ScoredGroup> groups = rollouts.sample(examples, round);
        long t1 = System.nanoTime();
        GrpoMetrics metrics = learner.trainGrpo(groups);
        publish.accept(adapter.snapshot());
        long t2 = System.nanoTime();
        return new Step(groups, metrics, TimeUnit.NANOSECONDS.toMillis(t1 - t0), TimeUnit.NANOSECONDS.toMillis(t2 - t1));
    }
}
