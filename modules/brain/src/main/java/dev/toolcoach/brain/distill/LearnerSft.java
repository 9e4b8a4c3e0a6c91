package dev.toolcoach.brain.distill;

import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.checkpoint.Checkpoint;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.SftMetrics;
import dev.toolcoach.learn.core.SftScore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>With a {@link Validation}, the last demonstrations are held out and scored after every pass (loss and the
 * policy's entropy on them, {@link #passes()}); with a patience, training stops once the held-out loss has not
 * improved for that many passes and the weights go back to the best pass. A warm-up trained past that point
 * memorises its demonstrations: the held-out loss rises while the policy grows certain, and the RL phase that
 * follows has nothing left to explore. With a target loss, training stops after the first pass whose held-out loss
 * reaches it: the task is learnt, however many passes that took (the epochs are then the cap).
 */
public final class LearnerSft implements SftStep {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerSft.class);
    /** Held-out demonstrations are at most one in this many. */
    private static final int MAX_HELD_OUT_SHARE = 2;

    /**
     * @param heldOut    demonstrations (the last ones) scored after each pass instead of trained on; 0: none
     * @param patience   passes without a lower held-out loss before training stops at the best pass; 0: every pass runs
     * @param targetLoss training stops after the first pass whose held-out loss (nats per token) is at most this; 0: off
     */
    public record Validation(int heldOut, int patience, double targetLoss) {
        public static final Validation NONE = new Validation(0, 0, 0);

        public Validation {
            if (heldOut < 0 || patience < 0 || !(targetLoss >= 0)) {
                throw new IllegalArgumentException("held-out demonstrations, patience and target loss must be >= 0, got " + heldOut
                        + ", " + patience + " and " + targetLoss);
            }
            if ((patience > 0 || targetLoss > 0) && heldOut == 0) {
                throw new IllegalArgumentException("a patience or a target loss needs held-out demonstrations");
            }
        }

        /** Without a target loss. */
        public Validation(int heldOut, int patience) {
            this(heldOut, patience, 0);
        }
    }

    /**
     * One pass over the demonstrations.
     *
     * @param pass       1-based
     * @param trainLoss  mean of the pass's batch losses
     * @param heldOut    the held-out demonstrations scored after it, or null without validation
     */
    public record Pass(int pass, double trainLoss, SftScore heldOut) {
    }

    private final LearnerCore learner;
    private final int epochs;
    private final double rewardThreshold;
    private final int batchSize;
    private final Random shuffle;
    private final Progress progress;
    private final Validation validation;
    private final List<SftMetrics> history = new ArrayList<>();
    private final List<Pass> passes = new ArrayList<>();
    private int kept;

    /** One full-batch step per epoch. */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold) {
        this(learner, epochs, rewardThreshold, Integer.MAX_VALUE, 0L);
    }

    /** @param batchSize demonstrations per optimiser step; @param seed orders the demonstrations of each pass */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold, int batchSize, long seed) {
        this(learner, epochs, rewardThreshold, batchSize, seed, Progress.NONE, Validation.NONE);
    }

    /**
     * @param progress   hears the SFT batches as they are trained
     * @param validation held-out demonstrations and early stopping
     */
    public LearnerSft(LearnerCore learner, int epochs, double rewardThreshold, int batchSize, long seed, Progress progress,
                      Validation validation) {
        if (epochs < 1) throw new IllegalArgumentException("epochs must be >= 1, got " + epochs);
        if (batchSize < 1) throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        this.learner = learner;
        this.epochs = epochs;
        this.rewardThreshold = rewardThreshold;
        this.batchSize = batchSize;
        this.shuffle = new Random(seed);
        this.progress = progress;
        this.validation = validation;
    }

    /** Tokens trained on, summed over the passes run. */
    @Override
    public long train(List<ScoredTrace> demonstrations) {
        // at most half, so that a small task (hpo over one dataset) still has demonstrations to train on
        int held = Math.min(validation.heldOut(), demonstrations.size() / MAX_HELD_OUT_SHARE);
        if (held < validation.heldOut()) {
            LOG.info("warm-up: {} of {} demonstrations held out (at most half; the recipe asks for {})", held,
                    demonstrations.size(), validation.heldOut());
        }
        List<ScoredTrace> training = demonstrations.subList(0, demonstrations.size() - held);
        List<ScoredTrace> heldOut = demonstrations.subList(demonstrations.size() - held, demonstrations.size());
        long tokens = 0;
        int n = training.size();
        long batches = n == 0 ? 0 : (long) epochs * ((n - 1) / batchSize + 1);
        Checkpoint best = null;
        int bestPass = 0;
        double bestLoss = Double.POSITIVE_INFINITY;
        try (Progress.Meter meter = progress.start("warm-up SFT", batches, "batches")) {
            for (int epoch = 1; epoch <= epochs; epoch++) {
                List<ScoredTrace> order = new ArrayList<>(training);
                if (batchSize < order.size()) Collections.shuffle(order, shuffle);
                double lossSum = 0;
                int steps = 0;
                for (int from = 0; from < order.size(); from += batchSize) {
                    SftMetrics metrics = learner.trainSft(order.subList(from, Math.min(order.size(), from + batchSize)),
                            rewardThreshold);
                    history.add(metrics);
                    tokens += metrics.tokensTrained();
                    lossSum += metrics.loss();
                    steps++;
                    meter.step();
                }
                SftScore score = heldOut.isEmpty() ? null : learner.scoreSft(heldOut, rewardThreshold);
                passes.add(new Pass(epoch, steps == 0 ? Double.NaN : lossSum / steps, score));
                if (score != null) {
                    LOG.info("warm-up pass {}/{}: train loss {}, held-out loss {}, held-out entropy {} nats/token", epoch, epochs,
                            round(lossSum / steps), round(score.loss()), round(score.entropy()));
                }
                if (score != null && validation.targetLoss() > 0 && score.loss() <= validation.targetLoss()) {
                    LOG.info("warm-up reached held-out loss {} (target {}) after pass {}", round(score.loss()), validation.targetLoss(), epoch);
                    best = null;
                    bestPass = epoch;
                    break;
                }
                if (validation.patience() == 0 || score == null) continue;
                if (score.loss() < bestLoss) {
                    bestLoss = score.loss();
                    bestPass = epoch;
                    best = epoch == epochs ? null : learner.checkpoint(null);
                } else if (epoch - bestPass >= validation.patience()) {
                    break;
                }
            }
        }
        if (best != null && bestPass != passes.size()) {
            learner.restore(best);
            LOG.info("warm-up stopped after pass {}: back to pass {}, the lowest held-out loss", passes.size(), bestPass);
        }
        kept = bestPass > 0 ? bestPass : passes.size();
        return tokens;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** The metrics of every step run so far, in order. */
    public List<SftMetrics> history() {
        return List.copyOf(history);
    }

    /** Every pass run, in order, with its held-out scores when there were held-out demonstrations. */
    public List<Pass> passes() {
        return List.copyOf(passes);
    }

    /** The pass whose weights training ended with (the best by held-out loss when stopping early, else the last). */
    public int keptPass() {
        return kept;
    }
}
