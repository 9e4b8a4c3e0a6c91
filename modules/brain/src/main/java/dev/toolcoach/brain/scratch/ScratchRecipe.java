package dev.toolcoach.brain.scratch;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.SamplingParams;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.optim.AdamWConfig;
import dev.toolcoach.learn.optim.LrSchedule;
import dev.toolcoach.model.lora.LoraConfig;

import java.time.Duration;
import java.util.Set;

/**
 * How to train a task-sized model from scratch: a distillation warm-up (SFT of every weight on oracle
 * traces), then GRPO with a LoRA adapter on the frozen warmed-up base.
 *
 * <p>How the defaults were found: with {@code FinanceRecipeBench} on the finance task (500 questions,
 * 400 train / 100 test, greedy test accuracy) on the 2-core machines while other builds ran (load 2–6):
 * <ul>
 * <li>Vocabulary: 1024 BPE merges of pairs seen at least 8 times in the training texts, digits never
 *     merged, give an oracle rollout of 111 tokens (median; 1618 characters): the compact Tool-N1 system
 *     prompt is a handful of tokens, the scaffold of a call or an answer one or two, so the model's work
 *     is choosing the scaffold and copying digits. Contexts stay under 160 tokens, hence 512.</li>
 * <li>Model: dim 128, 4 layers, 4 heads, MLP 384 (about 1.3 M parameters with the 1283-token vocabulary);
 *     one intra-op thread on the learner's thread (with two, a step took 5.9 s instead of 0.33 s under load).</li>
 * <li>Warm-up: copying numbers appears late. 128 traces × 20 epochs (160 steps): 0 % (format right, digits
 *     wrong); 400 × 12 (300 steps, 94 s): 4 %; 400 × 24 (600 steps, 216 s at load 5): 54 %, loss 0.005.
 *     Batches of 16, AdamW (0.9, 0.95), peak 3e-3, 10 % warm-up, cosine to a tenth.</li>
 * <li>GRPO: G 8 × 8 groups, temperature 1, LoRA r 16 / alpha 32 on every projection, lr 2e-3, reward =
 *     task reward with oracle-call credit 0.5 ({@code CallShapedReward}): about 20–30 rollouts/s, 30 steps
 *     in 83–194 s. It did not add accuracy (seed 1: 54 % → 49 % after the 600-step warm-up; 4 % → 3 % after
 *     the 300-step one): the warmed-up policy is nearly deterministic (entropy 0.02 nats/token), so 3–6 of
 *     every 8 groups have equal rewards and carry no signal.</li>
 * </ul>
 * The targets of the finance job (GRPO +20 points over the warm-up, 85 % in 10 minutes) are not met by
 * these values; see the bench's report for the per-seed numbers.
 *
 * @param shape           the model (its vocabulary comes from the task's texts)
 * @param maxMerges       most BPE merges learned from the training texts
 * @param minMergeCount   a merged pair must occur this often in them
 * @param warmupTraces    oracle traces the warm-up learns from
 * @param warmupEpochs    passes over them
 * @param warmupBatch     traces per optimiser step
 * @param warmupLr        peak learning rate of the warm-up (linear warm-up, cosine decay)
 * @param groupSize       GRPO rollouts per query (G)
 * @param groupsPerStep   queries per GRPO step
 * @param grpoSteps       GRPO steps
 * @param temperature     sampling temperature of the GRPO rollouts
 * @param grpoLr          learning rate of the LoRA adapter
 * @param callWeight      weight of the oracle-call term of GRPO's reward ({@code CallShapedReward}; 0 = the task reward alone)
 * @param lora            the adapter GRPO trains
 * @param maxTurns        most replies per rollout
 * @param maxTotalTokens  most tokens in a rollout's context
 * @param maxNewTokens    most tokens per reply
 * @param engineBatch     sequences the inference engine decodes together
 */
public record ScratchRecipe(ScratchModel.Shape shape, int maxMerges, int minMergeCount,
                            int warmupTraces, int warmupEpochs, int warmupBatch, double warmupLr,
                            int groupSize, int groupsPerStep, int grpoSteps, float temperature, double grpoLr,
                            double callWeight, LoraConfig lora, int maxTurns, int maxTotalTokens, int maxNewTokens, int engineBatch) {

    public static ScratchRecipe defaults() {
        return new ScratchRecipe(new ScratchModel.Shape(128, 384, 4, 4, 4, 512), 1024, 8,
                400, 24, 16, 3e-3,
                8, 8, 30, 1.0f, 2e-3, 0.5,
                new LoraConfig(16, 32f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), 4, 512, 64, 64);
    }

    /** The agent's format and limits, sampling as given. */
    public AgentConfig agent(SamplingParams sampling) {
        return new AgentConfig(ActionFormat.TOOL_N1_COMPACT, sampling, maxTurns, maxTotalTokens, Duration.ofSeconds(10), 1000);
    }

    /** Greedy decoding: what evaluation and the oracle's replay use. */
    public AgentConfig greedyAgent() {
        return agent(SamplingParams.greedy(maxNewTokens));
    }

    /** The GRPO rollouts' sampling, seeded. */
    public AgentConfig samplingAgent(long seed) {
        return agent(new SamplingParams(temperature, 0, 1f, maxNewTokens, seed));
    }

    /** The warm-up's optimiser: all weights, 10% linear warm-up then cosine to a tenth over every step. */
    public LearnerConfig warmupLearner(long seed) {
        int steps = warmupEpochs * ((warmupTraces + warmupBatch - 1) / warmupBatch);
        return new LearnerConfig(LearnerConfig.defaults(warmupLr).grpo(), LearnerConfig.defaults(warmupLr).dpo(),
                new AdamWConfig(0.9, 0.95, 1e-8, 0.0), new LrSchedule(warmupLr, Math.max(1, steps / 10), steps,
                LrSchedule.Decay.COSINE, 0.1), 1.0, 16, seed);
    }

    /** GRPO's optimiser: the LoRA adapter at a constant rate. */
    public LearnerConfig grpoLearner(long seed) {
        LearnerConfig d = LearnerConfig.defaults(grpoLr);
        return new LearnerConfig(d.grpo(), d.dpo(), d.optimiser(), d.schedule(), d.maxGradNorm(), 8, seed);
    }

    public ScratchRecipe withGrpoSteps(int steps) {
        return new ScratchRecipe(shape, maxMerges, minMergeCount, warmupTraces, warmupEpochs, warmupBatch, warmupLr,
                groupSize, groupsPerStep, steps, temperature, grpoLr, callWeight, lora, maxTurns, maxTotalTokens, maxNewTokens, engineBatch);
    }

    public ScratchRecipe withWarmupTraces(int traces) {
        return new ScratchRecipe(shape, maxMerges, minMergeCount, traces, warmupEpochs, warmupBatch, warmupLr,
                groupSize, groupsPerStep, grpoSteps, temperature, grpoLr, callWeight, lora, maxTurns, maxTotalTokens, maxNewTokens, engineBatch);
    }
}
