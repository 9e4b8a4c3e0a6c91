package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.model.generate.Sampler;
import dev.toolcoach.lm.SamplingParams;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SamplerTest {
    private static final float[] LOGITS = {2f, 1f, 0.5f, -1f, 3f};

    private static SamplingParams params(float t, float p, int k, long seed) {
        return new SamplingParams(t, k, p, 10, seed, Set.of(), List.of());
    }

    @Test
    void greedyTakesTheArgmaxFromAPointMass() {
        Sampler.Sampled s = new Sampler(params(0f, 1f, 0, 1)).sample(LOGITS, 0, LOGITS.length);
        assertEquals(4, s.token());
        assertEquals(0f, s.logProb());
    }

    @Test
    void logProbIsUnderTheTruncatedTemperedDistribution() {
        Sampler sampler = new Sampler(params(0.5f, 1f, 2, 7));
        // top-2 of logits/0.5 are tokens 4 (6.0) and 0 (4.0): p(4) = 1/(1+e^-2)
        double p4 = 1 / (1 + Math.exp(-2));
        for (int i = 0; i < 50; i++) {
            Sampler.Sampled s = sampler.sample(LOGITS, 0, LOGITS.length);
            assertTrue(s.token() == 4 || s.token() == 0, "only the top-2 tokens are sampled");
            assertEquals(Math.log(s.token() == 4 ? p4 : 1 - p4), s.logProb(), 1e-5);
        }
    }

    @Test
    void topPKeepsTheSmallestNucleus() {
        // softmax(LOGITS): token 4 ≈ 0.61, token 0 ≈ 0.22 → top-p 0.7 keeps exactly {4, 0}
        Sampler sampler = new Sampler(params(1f, 0.7f, 0, 3));
        for (int i = 0; i < 50; i++) {
            int t = sampler.sample(LOGITS, 0, LOGITS.length).token();
            assertTrue(t == 4 || t == 0, "token " + t + " is outside the nucleus");
        }
    }

    @Test
    void topPOverALargeVocabularyWithALongTail() {
        float[] logits = new float[1000];
        Arrays.fill(logits, -10f);
        logits[0] = 3f;
        logits[1] = 2f;
        logits[2] = 1f;
        // masses e^3 : e^2 : e^1 : 997 e^-10 -> tokens 0 and 1 hold 91% of it, so top-p 0.9 keeps exactly them
        Sampler sampler = new Sampler(params(1f, 0.9f, 0, 4));
        double kept = Math.exp(3) + Math.exp(2);
        for (int i = 0; i < 50; i++) {
            Sampler.Sampled s = sampler.sample(logits, 0, logits.length);
            assertTrue(s.token() <= 1, "token " + s.token() + " is outside the nucleus");
            assertEquals(Math.log(Math.exp(3 - s.token()) / kept), s.logProb(), 1e-5);
        }
    }

    @Test
    void sameSeedSameTokensAndFrequenciesFollowTheDistribution() {
        int[] counts = new int[LOGITS.length];
        Sampler a = new Sampler(params(1f, 1f, 0, 11));
        Sampler b = new Sampler(params(1f, 1f, 0, 11));
        int n = 20000;
        StringBuilder seqA = new StringBuilder();
        StringBuilder seqC = new StringBuilder();
        Sampler c = new Sampler(params(1f, 1f, 0, 12));
        for (int i = 0; i < n; i++) {
            int t = a.sample(LOGITS, 0, LOGITS.length).token();
            assertEquals(t, b.sample(LOGITS, 0, LOGITS.length).token());
            counts[t]++;
            if (i < 40) {
                seqA.append(t);
                seqC.append(c.sample(LOGITS, 0, LOGITS.length).token());
            }
        }
        assertNotEquals(seqA.toString(), seqC.toString(), "another seed gives other samples");
        double z = 0;
        for (float l : LOGITS) {
            z += Math.exp(l);
        }
        for (int t = 0; t < LOGITS.length; t++) {
            assertEquals(Math.exp(LOGITS[t]) / z, counts[t] / (double) n, 0.015, "token " + t);
        }
    }

    @Test
    void samplesFromASliceOfABatchedLogitArray() {
        float[] batch = new float[10];
        System.arraycopy(LOGITS, 0, batch, 5, 5);
        assertEquals(4, new Sampler(params(0f, 1f, 0, 0)).sample(batch, 5, 5).token());
    }
}
