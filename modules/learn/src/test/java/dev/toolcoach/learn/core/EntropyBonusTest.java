package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.loss.GrpoConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GRPO's entropy bonus reaches the learner's update: from the same confident policy and the same groups, steps with the
 * bonus leave the next-token distribution at the rollouts' positions flatter than steps without it.
 */
class EntropyBonusTest {
    private static final int VOCAB = 16;
    private static final int[] PROMPT = {1, 2, 3};

    @Test
    void aBonusLeavesThePolicyLessCertainThanTheSameStepsWithout() {
        double without = entropyAfterSteps(0);
        double with = entropyAfterSteps(0.5);
        assertTrue(with > without + 0.05, "entropy after the steps: " + without + " without the bonus, " + with + " with it");
    }

    /** Entropy (nats) of the next token after the prompt, after four GRPO steps on one group of one-token rollouts. */
    private static double entropyAfterSteps(double bonus) {
        try (TinyPolicy policy = new TinyPolicy(VOCAB, 2, 5f, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults().withEntropyBonus(bonus), 1e-2, 5))) {
            float[] logprobs = policy.nextTokenLogprobs(new int[][] {PROMPT})[0];
            List<ScoredTrace> traces = new ArrayList<>();
            for (int r = 0; r < 6; r++) {
                int token = r == 0 ? TinyPolicy.argmax(logprobs) : r;
                traces.add(new ScoredTrace(TinyPolicy.trace("r" + r, "g", PROMPT, new int[] {token}, new float[] {logprobs[token]}, 0),
                        r % 2));
            }
            for (int step = 0; step < 4; step++) learner.trainGrpo(List.of(new ScoredGroup("g", traces)));
            double entropy = 0;
            for (float lp : policy.nextTokenLogprobs(new int[][] {PROMPT})[0]) entropy -= Math.exp(lp) * lp;
            return entropy;
        }
    }
}
