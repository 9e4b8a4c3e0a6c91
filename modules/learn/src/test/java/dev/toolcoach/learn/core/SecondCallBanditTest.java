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

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GRPO on a two-call episode whose reward only the second call decides. The vocabulary is four tool names (0-3) and
 * four observations (4-7). The prompt lists the tools in a random order; the policy calls one tool (its first call,
 * which earns nothing by itself); the environment answers with observation {@code 4 + k}, naming the tool k that is
 * right this time, drawn at random; the policy calls again, and the episode earns 1 when that second call is tool k.
 * One context: the prompt, the first call (trained), the observation (masked: the environment wrote it) and the
 * second call (trained). GRPO must make it follow the
 * observation, which needs the masked token read through the adapter and credit given to the second call alone.
 * Calls sample the whole vocabulary, so a fresh policy is right about 1 time in 8 (calling an observation is wrong).
 */
class SecondCallBanditTest {
    private static final int TOOLS = 4;
    private static final int VOCAB = 8;
    private static final int EVALUATION_EPISODES = 32;

    @Test
    void grpoTeachesTheSecondCallToFollowTheObservationFromAWeakStart() {
        long seed = GrpoBanditTest.seed();
        try (TinyPolicy policy = new TinyPolicy(VOCAB, 2, GrpoBanditTest.HEAD_SCALE, GrpoBanditTest.MODEL_SEED);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults(), 1e-2, seed))) {
            SeededRandom random = new SeededRandom(seed);
            double before = successRate(policy);
            for (int step = 0; step < 40; step++) { // seed 3: 0.11 -> 0.79
                learner.trainGrpo(rollouts(policy, learner.version(), random, step, 4, 8));
            }
            double after = successRate(policy);
            assertTrue(before < 0.3, "a fresh policy's second call should be about 1 in 8 right, got " + before);
            assertTrue(after > 0.5, "GRPO should make the second call follow the observation, got " + before + " -> " + after);
        }
    }

    /** {@code groups} groups of {@code size} episodes on the current policy, each group one prompt and one right tool. */
    private static List<ScoredGroup> rollouts(TinyPolicy policy, int version, SeededRandom random, int step, int groups, int size) {
        List<ScoredGroup> out = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int[] menu = menu(random);
            int right = random.nextInt(TOOLS);
            int[][] prompts = new int[size][];
            Arrays.fill(prompts, menu);
            float[][] first = policy.nextTokenLogprobs(prompts);
            int[] calls = new int[size];
            int[][] afterObservation = new int[size][];
            for (int i = 0; i < size; i++) {
                calls[i] = TinyPolicy.sample(first[i], random);
                afterObservation[i] = new int[] {menu[0], menu[1], menu[2], menu[3], calls[i], TOOLS + right};
            }
            float[][] second = policy.nextTokenLogprobs(afterObservation);
            String groupId = "s" + step + "g" + g;
            List<ScoredTrace> traces = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int call = TinyPolicy.sample(second[i], random);
                traces.add(new ScoredTrace(episode(groupId + "-" + i, groupId, menu, calls[i], first[i][calls[i]], right, call,
                        second[i][call], version), call == right ? 1.0 : 0.0));
            }
            out.add(new ScoredGroup(groupId, traces));
        }
        return out;
    }

    /** The expected share of right second calls over fixed episodes, the first call the policy's likeliest. */
    private static double successRate(TinyPolicy policy) {
        SeededRandom random = new SeededRandom(12345);
        int[][] prompts = new int[EVALUATION_EPISODES][];
        int[] right = new int[EVALUATION_EPISODES];
        for (int i = 0; i < prompts.length; i++) {
            prompts[i] = menu(random);
            right[i] = i % TOOLS;
        }
        float[][] first = policy.nextTokenLogprobs(prompts);
        int[][] afterObservation = new int[prompts.length][];
        for (int i = 0; i < prompts.length; i++) {
            int call = TinyPolicy.argmax(first[i]);
            afterObservation[i] = new int[] {prompts[i][0], prompts[i][1], prompts[i][2], prompts[i][3], call, TOOLS + right[i]};
        }
        float[][] second = policy.nextTokenLogprobs(afterObservation);
        double sum = 0;
        for (int i = 0; i < prompts.length; i++) sum += Math.exp(second[i][right[i]]);
        return sum / prompts.length;
    }

    private static int[] menu(SeededRandom random) {
        int[] menu = {0, 1, 2, 3};
        random.shuffle(menu);
        return menu;
    }

    /** prompt | first call (trained) | observation (masked) | second call (trained), with the behaviour log-probs. */
    private static Trace episode(String id, String group, int[] menu, int firstCall, float firstLogprob, int right,
                                 int secondCall, float secondLogprob, int version) {
        int[] ids = {menu[0], menu[1], menu[2], menu[3], firstCall, TOOLS + right, secondCall};
        int[] mask = {0, 0, 0, 0, 1, 0, 1};
        float[] logprobs = {0, 0, 0, 0, firstLogprob, 0, secondLogprob};
        int[] versions = {-1, -1, -1, -1, version, -1, version};
        return new Trace(id, group, group, null, null, new TokenRecord(menu.length, ids, mask, logprobs, versions),
                null, Termination.ANSWER, null, 0, 0, null);
    }
}
