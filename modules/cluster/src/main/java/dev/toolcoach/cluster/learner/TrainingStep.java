package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.TrainingMetrics;
import dev.toolcoach.model.lora.AdapterWeights;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One learner update from scored groups with the job's algorithm, and the adapter to publish when the weights changed.
 * Runs on the learner's training thread and counts nothing: its {@link StepResult} says what it did.
 */
public final class TrainingStep {
    private final LearnerCore core;
    private final Algorithm algorithm;
    private final double sftRewardThreshold;

    /** @param sftRewardThreshold SFT learns only from traces whose reward reaches it (ignored by GRPO and DPO) */
    public TrainingStep(LearnerCore core, Algorithm algorithm, double sftRewardThreshold) {
        this.core = core;
        this.algorithm = algorithm;
        this.sftRewardThreshold = sftRewardThreshold;
    }

    public StepResult run(List<ScoredGroup> groups) {
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("a training step needs at least one scored group");
        }
        long start = System.nanoTime();
        int before = core.version();
        TrainingMetrics metrics = switch (algorithm) {
            case GRPO -> core.trainGrpo(groups);
            case DPO -> core.trainDpo(groups);
            case SFT -> core.trainSft(groups.stream().flatMap(g -> g.traces().stream()).toList(), sftRewardThreshold);
        };
        int skipped = (int) groups.stream().filter(g -> !hasSignal(g)).count();
        Optional<AdapterWeights> published = core.version() > before ? Optional.of(core.adapterWeights()) : Optional.empty();
        return new StepResult(core.version(), skipped, metrics, published, Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * Something can be learned from the group: GRPO advantages and DPO pairs need unequal rewards; SFT a trace at the
     * threshold. Depends on the algorithm alone, so the actor's thread may ask it while a step runs.
     */
    public boolean hasSignal(ScoredGroup group) {
        return algorithm == Algorithm.SFT
                ? group.traces().stream().mapToDouble(ScoredTrace::reward).anyMatch(r -> r >= sftRewardThreshold)
                : !group.hasZeroVariance();
    }
}
