package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.tasks.RewardContext;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The learner's work off the actor's thread: scoring each complete group whole with the job's reward as it completes,
 * and one training step on a batch of scored groups. Runs on the learner's training thread, never on the actor's.
 */
final class StepRunner {
    private final GroupScorer scorer;
    private final TrainingStep training;
    private final Function<String, RewardContext> examples;

    /**
     * A scored group.
     *
     * @param groupId     the group
     * @param scored      its rewards, empty when the reward could not score it
     * @param informative something can be learned from it
     */
    record Scoring(String groupId, Optional<ScoredGroup> scored, boolean informative) {
    }

    /** @param examples the dataset example of a query id, as the reward sees it */
    StepRunner(GroupScorer scorer, TrainingStep training, Function<String, RewardContext> examples) {
        this.scorer = scorer;
        this.training = training;
        this.examples = examples;
    }

    /** @throws dev.toolcoach.rewards.RewardUnavailableException when the reward cannot work at all: the job must stop */
    Scoring score(CompleteGroup group) {
        Optional<ScoredGroup> scored = scorer.score(group, examples.apply(group.traces().get(0).queryId()));
        return new Scoring(group.groupId(), scored, scored.map(training::hasSignal).orElse(false));
    }

    StepOutcome run(LearnerSteps.Train train) {
        long start = System.nanoTime();
        StepResult result = training.run(train.batch());
        return new StepOutcome(train.batch(), train.sampling(), result, Duration.ofNanos(System.nanoTime() - start));
    }
}
