package dev.toolcoach.learn.core;

import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trace whose chat template rewrote earlier turns holds two contexts, one after the other. Each token was
 * sampled seeing only its own context, so the learner must score it that way: then the log-probs it recomputes
 * (before its first update) equal the behaviour log-probs and every GRPO ratio is 1. Read as one context, the
 * second context's tokens would see the first and the ratios move away from 1.
 */
class ContextScoringTest {
    private static final int VOCAB = 16;
    private static final float HEAD_SCALE = 100f;

    @Test
    void eachContextIsScoredAloneSoTheRecomputedLogprobsAreTheBehaviourOnes() {
        GrpoMetrics separate = firstStep(true);
        assertEquals(1.0, separate.meanRatio(), 1e-5, "ratios against the behaviour log-probs: " + separate);
        assertEquals(0.0, separate.clipFractionLow() + separate.clipFractionHigh(), 1e-9);

        GrpoMetrics joined = firstStep(false);
        assertTrue(Math.abs(joined.meanRatio() - 1.0) > 1e-2,
                "the same tokens read as one context are scored in a context they were not sampled in: " + joined);
    }

    /** One GRPO step on two fresh rollouts of two contexts each; {@code keepContexts} false drops the boundaries. */
    private static GrpoMetrics firstStep(boolean keepContexts) {
        try (TinyPolicy policy = new TinyPolicy(VOCAB, 2, HEAD_SCALE, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults().withBeta(0.04), 1e-2, 5))) {
            SeededRandom random = new SeededRandom(9);
            List<ScoredTrace> traces = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                TokenRecord record = rollout(policy, random, new int[] {1, 2, 3, 4}, new int[] {7, 8, 9, 10, 11, 12 + r});
                if (!keepContexts) {
                    record = new TokenRecord(record.promptLength(), record.tokenIds(), record.lossMask(),
                            record.behaviorLogprobs(), record.policyVersions());
                }
                traces.add(new ScoredTrace(new Trace("r" + r, "g", "q", "query", List.of(), record, null,
                        Termination.MAX_TURNS, null, 0, 0, Map.of()), r));
            }
            return learner.trainGrpo(List.of(new ScoredGroup("g", traces)));
        }
    }

    /** Samples 4 tokens after each prompt, each prompt starting a context of its own. */
    private static TokenRecord rollout(TinyPolicy policy, SeededRandom random, int[] first, int[] second) {
        List<int[]> ids = new ArrayList<>();
        List<float[]> logprobs = new ArrayList<>();
        List<int[]> masks = new ArrayList<>();
        for (int[] prompt : List.of(first, second)) {
            int[] context = prompt.clone();
            float[] lp = new float[prompt.length + 4];
            int[] mask = new int[prompt.length + 4];
            for (int t = 0; t < 4; t++) {
                float[] next = policy.nextTokenLogprobs(new int[][] {context})[0];
                int token = TinyPolicy.sample(next, random);
                lp[context.length] = next[token];
                mask[context.length] = 1;
                context = Arrays.copyOf(context, context.length + 1);
                context[context.length - 1] = token;
            }
            ids.add(context);
            logprobs.add(lp);
            masks.add(mask);
        }
        int n = ids.get(0).length + ids.get(1).length;
        int[] allIds = new int[n];
        int[] allMask = new int[n];
        float[] allLogprobs = new float[n];
        int[] versions = new int[n];
        int at = 0;
        for (int c = 0; c < 2; c++) {
            int len = ids.get(c).length;
            System.arraycopy(ids.get(c), 0, allIds, at, len);
            System.arraycopy(masks.get(c), 0, allMask, at, len);
            System.arraycopy(logprobs.get(c), 0, allLogprobs, at, len);
            at += len;
        }
        for (int i = 0; i < n; i++) versions[i] = allMask[i] == 1 ? 0 : -1;
        return new TokenRecord(first.length, allIds, allMask, allLogprobs, versions, new int[] {ids.get(0).length});
    }
}
