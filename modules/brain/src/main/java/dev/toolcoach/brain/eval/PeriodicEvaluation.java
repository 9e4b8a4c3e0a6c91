package dev.toolcoach.brain.eval;

import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;

import java.util.List;
import java.util.Objects;

/**
 * A small held-out evaluation while training, as verl's {@code test_freq}: after every {@code every}-th job step the
 * learner waits while {@code examples} are answered greedily with that step's adapter, and {@code sink} hears the
 * report. The training rollouts' curve cannot show this: dynamic sampling keeps the groups whose rollouts differ.
 *
 * @param every    job steps between evaluations
 * @param examples held-out examples, the same ones each time
 * @param score    what a correct answer is
 * @param sink     hears each evaluation, on the learner's training thread
 */
public record PeriodicEvaluation(int every, List<TaskExample> examples, TraceReward score, Sink sink) {

    /** Hears one held-out evaluation. */
    @FunctionalInterface
    public interface Sink {
        void evaluated(long step, int version, EvaluationReport report);
    }

    public PeriodicEvaluation {
        if (every < 1) throw new IllegalArgumentException("a periodic evaluation needs at least 1 step between runs, was " + every);
        examples = List.copyOf(Objects.requireNonNull(examples, "examples"));
        if (examples.isEmpty()) throw new IllegalArgumentException("a periodic evaluation needs held-out examples");
        Objects.requireNonNull(score, "score");
        Objects.requireNonNull(sink, "sink");
    }
}
