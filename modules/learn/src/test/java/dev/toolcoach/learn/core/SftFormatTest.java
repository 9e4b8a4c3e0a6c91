package dev.toolcoach.learn.core;

import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.loss.GrpoConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (e) Distillation: 50 teacher demonstrations of a short call format, "query -> &lt;tool_call&gt; TOOL
 * &lt;/tool_call&gt;", bring greedy exact-match above 90%. Half the teacher traces are wrong and carry a
 * low reward: the threshold must keep them out.
 */
class SftFormatTest {
    static final int OPEN = 4;
    static final int CLOSE = 5;
    static final int FIRST_QUERY = 6;
    static final int QUERIES = 8;

    static int[] answer(int query) {
        return new int[] {OPEN, (query - FIRST_QUERY) % 4, CLOSE};
    }

    @Test
    void sftOnFiftyDemonstrationsReachesNinetyPercentExactMatch() {
        SeededRandom random = new SeededRandom(GrpoBanditTest.seed());
        List<ScoredTrace> teacher = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int query = FIRST_QUERY + random.nextInt(QUERIES);
            boolean good = i % 2 == 0;
            int[] out = good ? answer(query) : new int[] {OPEN, random.nextInt(4), OPEN};
            teacher.add(new ScoredTrace(TinyPolicy.trace("t" + i, "t" + i, new int[] {query}, out, new float[3], 0),
                    good ? 1.0 : 0.0));
        }
        try (TinyPolicy policy = new TinyPolicy(FIRST_QUERY + QUERIES, 2, GrpoBanditTest.HEAD_SCALE, GrpoBanditTest.MODEL_SEED);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults(), 5e-3, GrpoBanditTest.seed()).withMicroBatchRows(64))) {
            SftMetrics first = learner.trainSft(teacher, 0.5);
            for (int epoch = 1; epoch < 60; epoch++) {
                learner.trainSft(teacher, 0.5);
            }
            assertEquals(50, first.rejectedTraces());
            assertEquals(150, first.tokensTrained());
            assertTrue(exactMatch(policy) > 0.9, "exact match " + exactMatch(policy));
        }
    }

    static double exactMatch(TinyPolicy policy) {
        int hits = 0;
        for (int q = FIRST_QUERY; q < FIRST_QUERY + QUERIES; q++) {
            int[] sequence = {q};
            for (int t = 0; t < 3; t++) {
                int next = TinyPolicy.argmax(policy.nextTokenLogprobs(new int[][] {sequence})[0]);
                sequence = Arrays.copyOf(sequence, sequence.length + 1);
                sequence[sequence.length - 1] = next;
            }
            hits += Arrays.equals(Arrays.copyOfRange(sequence, 1, 4), answer(q)) ? 1 : 0;
        }
        return (double) hits / QUERIES;
    }
}
