package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.PolicySnapshot;
import dev.toolcoach.learn.core.TrainingMetrics;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One learner update from scored groups with the job's algorithm, and the adapter to publish when
 * the weights changed. Accounts each group as trained or skipped (nothing to learn from).
 */
public final class TrainingStep {
    private final LearnerCore core;
    private final Algorithm algorithm;
    private final double sftRewardThreshold;
    private final AtomicReference<LearnerAccounts> accounts;

    /** @param sftRewardThreshold SFT learns only from traces whose reward reaches it (ignored by GRPO and DPO) */
    public TrainingStep(LearnerCore core, Algorithm algorithm, double sftRewardThreshold,
                        AtomicReference<LearnerAccounts> accounts) {
        this.core = core;
        this.algorithm = algorithm;
        this.sftRewardThreshold = sftRewardThreshold;
        this.accounts = accounts;
    }

    public StepResult run(List<ScoredGroup> groups) {
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("a training step needs at least one scored group");
        }
        int before = core.version();
        TrainingMetrics metrics = switch (algorithm) {
            case GRPO -> core.trainGrpo(groups);
            case DPO -> core.trainDpo(groups);
            case SFT -> core.trainSft(groups.stream().flatMap(g -> g.traces().stream()).toList(), sftRewardThreshold);
        };
        int skipped = (int) groups.stream().filter(g -> !hasSignal(g)).count();
        accounts.updateAndGet(a -> a.plusStep(groups.size() - skipped, skipped));
        Optional<PolicySnapshot> published = core.version() > before ? Optional.of(core.snapshot()) : Optional.empty();
        return new StepResult(algorithm, core.version(), groups.size(), skipped, metrics, published);
    }

    /** Something can be learned from the group: GRPO advantages and DPO pairs need unequal rewards; SFT a trace at the threshold. */
    boolean hasSignal(ScoredGroup group) {
        return algorithm == Algorithm.SFT
                ? group.traces().stream().mapToDouble(ScoredTrace::reward).anyMatch(r -> r >= sftRewardThreshold)
                : !group.hasZeroVariance();
    }
}
