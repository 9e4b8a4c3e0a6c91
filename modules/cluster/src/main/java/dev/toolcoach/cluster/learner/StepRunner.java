package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.tasks.RewardContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One learner step from complete groups: each group is scored whole by the job's reward, then the
 * scored ones are trained on together. Runs on the learner's training thread, never on the actor's.
 */
final class StepRunner {
    private final GroupScorer scorer;
    private final TrainingStep training;
    private final Function<String, RewardContext> examples;

    /** @param examples the dataset example of a query id, as the reward sees it */
    StepRunner(GroupScorer scorer, TrainingStep training, Function<String, RewardContext> examples) {
        this.scorer = scorer;
        this.training = training;
        this.examples = examples;
    }

    /** @throws dev.toolcoach.rewards.RewardUnavailableException when the reward cannot work at all: the job must stop */
    StepOutcome run(List<CompleteGroup> groups) {
        long start = System.nanoTime();
        List<ScoredGroup> scored = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (CompleteGroup group : groups) {
            Optional<ScoredGroup> s = scorer.score(group, examples.apply(group.traces().get(0).queryId()));
            if (s.isPresent()) {
                scored.add(s.get());
            } else {
                dropped.add(group.groupId());
            }
        }
        Optional<StepResult> result = scored.isEmpty() ? Optional.empty() : Optional.of(training.run(scored));
        return new StepOutcome(scored, dropped, result, Duration.ofNanos(System.nanoTime() - start));
    }
}
