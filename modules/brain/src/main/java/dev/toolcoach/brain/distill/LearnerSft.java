package dev.toolcoach.brain.distill;

import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.SftMetrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The SFT step on the learner: {@code epochs} passes over the demonstrations, each pass one optimiser
 * step of {@link LearnerCore#trainSft} per batch of demonstrations (by default one batch holding all of
 * them). Smaller batches, reshuffled every pass with a fixed seed, give a model trained from scratch
 * many more updates for the same compute. The demonstrations already passed the distiller's threshold;
 * the learner is given the same one, so it trains on exactly them.
 */
public final class LearnerSft implements SftStep {

    private final LearnerCore learner;
    private final int epochs;
    private final double rewardThreshold;
    private final int batchSize;
    private final Random shuffle;
    private final Progress progress;
    private final List<SftMetrics> history = new ArrayList<>();

    /** One full-batch step per epoch. */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold) {
        this(learner, epochs, rewardThreshold, Integer.MAX_VALUE, 0L);
    }

    /** @param batchSize demonstrations per optimiser step; @param seed orders the demonstrations of each pass */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold, int batchSize, long seed) {
        this(learner, epochs, rewardThreshold, batchSize, seed, Progress.NONE);
    }

    /** @param progress hears the SFT batches as they are trained */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold, int batchSize, long seed, Progress progress) {
        if (epochs < 1) throw new IllegalArgumentException("epochs must be >= 1, got " + epochs);
        if (batchSize < 1) throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        this.learner = learner;
        this.epochs = epochs;
        this.rewardThreshold = rewardThreshold;
        this.batchSize = batchSize;
        this.shuffle = new Random(seed);
        this.progress = progress;
    }

    /** Tokens trained on, summed over the epochs. */
    @Override
    public long train(List<ScoredTrace> demonstrations) {
        long tokens = 0;
        int n = demonstrations.size();
        long batches = n == 0 ? 0 : (long) epochs * ((n - 1) / batchSize + 1);
        try (Progress.Meter meter = progress.start("warm-up SFT", batches, "batches")) {
            for (int epoch = 0; epoch < epochs; epoch++) {
                List<ScoredTrace> order = new ArrayList<>(demonstrations);
                if (batchSize < order.size()) Collections.shuffle(order, shuffle);
                for (int from = 0; from < order.size(); from += batchSize) {
                    SftMetrics metrics = learner.trainSft(order.subList(from, Math.min(order.size(), from + batchSize)),
                            rewardThreshold);
                    history.add(metrics);
                    tokens += metrics.tokensTrained();
                    meter.step();
                }
            }
        }
        return tokens;
    }

    /** The metrics of every step run so far, in order. */
    public List<SftMetrics> history() {
        return List.copyOf(history);
    }
}
