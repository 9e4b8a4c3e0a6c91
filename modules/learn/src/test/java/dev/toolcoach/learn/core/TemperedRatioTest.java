package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.generate.Sampler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rollouts sampled above temperature 1 carry the tempered policy's log-probs (the engine's sampler records the
 * distribution it drew from). Scored at temperature 1, their ratios are not 1 even on fresh rollouts: a sampled unlikely
 * token's ratio is far below 1 (its push shrunk, or clipped away when its advantage is negative). Scored at the
 * rollouts' temperature, as the learner does, every ratio is 1 before the first update.
 */
class TemperedRatioTest {
    private static final int VOCAB = 16;
    private static final float TEMPERATURE = 1.6f;

    @Test
    void theLearnerScoresAtTheRolloutsTemperatureSoFreshRolloutsHaveRatioOne() {
        try (TinyPolicy policy = new TinyPolicy(VOCAB, 2, 100f, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults().withTemperature(TEMPERATURE), 1e-2, 5))) {
            List<ScoredTrace> traces = new ArrayList<>();
            double largestGap = 0; // between the untempered log-prob of a sampled token and its behaviour log-prob
            int[] prompt = {1, 2, 3};
            for (int r = 0; r < 6; r++) {
                Sampler sampler = new Sampler(new SamplingParams(TEMPERATURE, 0, 1f, 4, 100 + r));
                int[] context = prompt.clone();
                int[] generated = new int[4];
                float[] behaviour = new float[4];
                for (int t = 0; t < 4; t++) {
                    float[] logprobs = policy.nextTokenLogprobs(new int[][] {context})[0];
                    Sampler.Sampled s = sampler.sample(logprobs, 0, VOCAB);
                    generated[t] = s.token();
                    behaviour[t] = s.logProb();
                    largestGap = Math.max(largestGap, Math.abs(logprobs[s.token()] - s.logProb()));
                    context = Arrays.copyOf(context, context.length + 1);
                    context[context.length - 1] = s.token();
                }
                traces.add(new ScoredTrace(TinyPolicy.trace("r" + r, "g", prompt, generated, behaviour, 0), r % 2));
            }
            assertTrue(largestGap > 0.1, "at temperature 1 some sampled token's ratio would be exp(+-" + largestGap + ")");

            GrpoMetrics step = learner.trainGrpo(List.of(new ScoredGroup("g", traces)));
            assertEquals(1.0, step.meanRatio(), 1e-5, "scored at the sampling temperature: " + step);
            assertEquals(0, step.clipFractionLow() + step.clipFractionHigh(), 1e-9, step.toString());
        }
    }
}
