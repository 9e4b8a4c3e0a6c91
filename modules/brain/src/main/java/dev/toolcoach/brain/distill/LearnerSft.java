package dev.toolcoach.brain.distill;

import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.SftMetrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The SFT step on the learner: {@code epochs} supervised updates over the demonstrations, each one
 * optimiser step of {@link LearnerCore#trainSft}. The demonstrations already passed the distiller's
 * threshold; the learner is given the same one, so it trains on exactly them.
 */
public final class LearnerSft implements SftStep {

    private final LearnerCore learner;
    private final int epochs;
    private final double rewardThreshold;
    private final List<SftMetrics> history = new ArrayList<>();

    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold) {
        if (epochs < 1) throw new IllegalArgumentException("epochs must be >= 1, got " + epochs);
        this.learner = learner;
        this.epochs = epochs;
        this.rewardThreshold = rewardThreshold;
    }

    /** Tokens trained on, summed over the epochs. */
    @Override
    public long train(List<ScoredTrace> demonstrations) {
        long tokens = 0;
        for (int epoch = 0; epoch < epochs; epoch++) {
            SftMetrics metrics = learner.trainSft(demonstrations, rewardThreshold);
            history.add(metrics);
            tokens += metrics.tokensTrained();
        }
        return tokens;
    }

    /** The metrics of every epoch run so far, in order. */
    public List<SftMetrics> history() {
        return List.copyOf(history);
    }
}
