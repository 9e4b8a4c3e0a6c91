package dev.toolcoach.learn.core;

import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;

import java.util.ArrayList;
import java.util.List;

/**
 * The bandit of the learning tests: the vocabulary is four tool names, the prompt lists them in a
 * random order, the policy answers with one token, and only {@link #REWARDED} earns reward 1. A fresh
 * model picks each name with probability about 1/4.
 */
final class ToolChoiceBandit {
    static final String[] TOOLS = {"search", "calculator", "weather", "email"};
    static final int REWARDED = 2;
    private static final int EVALUATION_PROMPTS = 24;
    private final SeededRandom random;
    private final double[] payout;
    private int counter;

    /** Deterministic rewards: 1 for the rewarded tool, 0 otherwise. */
    ToolChoiceBandit(long seed) {
        this(seed, new double[] {0, 0, 1, 0});
    }

    /** Noisy rewards: tool i pays 1 with probability {@code payout[i]}, else 0. */
    ToolChoiceBandit(long seed, double[] payout) {
        this.random = new SeededRandom(seed);
        this.payout = payout.clone();
    }

    int[] prompt() {
        int[] menu = {0, 1, 2, 3};
        random.shuffle(menu);
        return menu;
    }

    /** {@code groups} groups of {@code size} rollouts sampled from the current policy, scored. */
    List<ScoredGroup> rollouts(TinyPolicy policy, int version, int groups, int size) {
        List<ScoredGroup> out = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int[] prompt = prompt();
            int[][] prompts = new int[size][];
            for (int i = 0; i < size; i++) prompts[i] = prompt;
            float[][] logprobs = policy.nextTokenLogprobs(prompts);
            String groupId = "g" + (counter++);
            List<ScoredTrace> traces = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int choice = TinyPolicy.sample(logprobs[i], random);
                traces.add(new ScoredTrace(TinyPolicy.trace(groupId + "-" + i, groupId, prompt, new int[] {choice},
                        new float[] {logprobs[i][choice]}, version), random.nextDouble() < payout[choice] ? 1.0 : 0.0));
            }
            out.add(new ScoredGroup(groupId, traces));
        }
        return out;
    }

    /** Expected success rate: the policy's mean probability of the rewarded tool over fixed evaluation prompts. */
    static double successRate(TinyPolicy policy) {
        double sum = 0;
        for (float[] lp : evaluationLogprobs(policy)) {
            sum += Math.exp(lp[REWARDED]);
        }
        return sum / EVALUATION_PROMPTS;
    }

    /** The policy's next-token log-probs on the fixed evaluation prompts (shuffled menus, the same on every call). */
    static float[][] evaluationLogprobs(TinyPolicy policy) {
        SeededRandom evalRandom = new SeededRandom(12345);
        int[][] prompts = new int[EVALUATION_PROMPTS][];
        for (int i = 0; i < prompts.length; i++) {
            int[] menu = {0, 1, 2, 3};
            evalRandom.shuffle(menu);
            prompts[i] = menu;
        }
        return policy.nextTokenLogprobs(prompts);
    }

    /** Mean KL(p || q) in nats over the rows of two {@link #evaluationLogprobs} results. */
    static double meanKl(float[][] p, float[][] q) {
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            for (int t = 0; t < p[i].length; t++) {
                sum += Math.exp(p[i][t]) * (p[i][t] - q[i][t]);
            }
        }
        return sum / p.length;
    }
}
