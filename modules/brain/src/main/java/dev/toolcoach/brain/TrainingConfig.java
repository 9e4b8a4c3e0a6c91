package dev.toolcoach.brain;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.learn.core.LearnerConfig;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.model.lora.LoraConfig;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How a training job runs: the one set of training defaults, those the main job's recipe was measured with
 * (docs/RECIPE.md), which the Brain API and {@code ScratchRecipe#defaults()} both take from here. Every number is checked here (or in the record that holds it), so a bad setting
 * fails before anything starts. Built with {@link #builder()} (one setter per setting below, each default given here
 * once); {@link #toBuilder()} changes a few of an existing config's.
 *
 * @param algorithm       GRPO, DPO or SFT (default GRPO)
 * @param batching        how rollouts are grouped into learner steps
 * @param athletes        athlete actors (each runs one rollout at a time; all share the node's engine) (default 16)
 * @param rollouts        how rollouts sample and how long they may run; the job's spec carries it to the athletes
 *                        (default temperature 1, 96 new tokens, 4 turns, 1,024 tokens in all)
 * @param optimisation    what is trained and how
 * @param checkpointEvery learner steps between checkpoints (default 5)
 * @param seed            seeds sampling, LoRA initialisation and the learner (default 1)
 * @param limits          when a job that no longer moves is ended, and how often a rollout may go out again
 *                        (default {@link Limits#defaults()})
 * @param device          where this process's models compute (the learner's, an embedded node's, evaluations'), in
 *                        which type a frozen base does; a cluster's athlete nodes compute where their own config says
 *                        (default {@link ComputeDevice#cpu()})
 */
public record TrainingConfig(Algorithm algorithm, Batching batching, int athletes, RolloutSettings rollouts,
                             Optimisation optimisation, int checkpointEvery, long seed, Limits limits, ComputeDevice device) {

    public TrainingConfig {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(rollouts, "rollouts");
        Objects.requireNonNull(optimisation, "optimisation");
        positive("athletes", athletes);
        positive("checkpoint interval", checkpointEvery);
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(device, "device");
    }

    /**
     * What keeps a job from running forever.
     *
     * @param jobTimeout      the training run is ended as failed when it has run this long
     * @param stallTimeout    ...or when no learner step completed for this long (a stuck cluster, a lost learner)
     * @param maxRedispatches times one rollout may go out again (missed deadline, lost athlete); once more and its
     *                        group is dropped and counted ({@code redispatch_limit}), so a poison query cannot loop
     */
    public record Limits(Duration jobTimeout, Duration stallTimeout, int maxRedispatches) {
        public Limits {
            Objects.requireNonNull(jobTimeout, "jobTimeout");
            Objects.requireNonNull(stallTimeout, "stallTimeout");
            if (jobTimeout.isNegative() || jobTimeout.isZero()) throw new IllegalArgumentException("job timeout must be positive, was " + jobTimeout);
            if (stallTimeout.isNegative() || stallTimeout.isZero()) {
                throw new IllegalArgumentException("stall timeout must be positive, was " + stallTimeout);
            }
            if (maxRedispatches < 0) throw new IllegalArgumentException("max re-dispatches must be 0 or more, was " + maxRedispatches);
        }

        /** 7 days, 30 minutes without a step, 3 re-dispatches. */
        public static Limits defaults() {
            return new Limits(Duration.ofDays(7), Duration.ofMinutes(30), 3);
        }
    }

    /**
     * @param groupSize      rollouts per query (G) (default 8)
     * @param groupsPerStep  query groups per learner step (default 8)
     * @param maxPolicyLag   versions a group's rollouts may lag the policy it is trained into; 0 is the
     *                       synchronous mode (roll out a batch, train, broadcast, repeat) (default 1)
     * @param rolloutTimeout a rollout not back by then is dispatched again (default 2 minutes)
     * @param oversampling   DAPO's dynamic sampling when above 1: a group whose rewards are all equal is dropped and a
     *                       fresh query takes its place, so steps train on {@code groupsPerStep} groups with signal; the
     *                       job samples at most this many times its {@code steps × groupsPerStep} groups (the bound that
     *                       ends it when the policy solves, or fails, nearly every query). 1: every group is trained
     *                       on, those without signal skipped by the step (default 1)
     * @param turnBarrier    the rollouts dispatched together wait at each turn for the slowest of them (its reply and
     *                       its tool calls), as a synchronous batched rollout does: VerlTool's baseline, for comparing
     *                       with the asynchronous rollouts; policy lag 0 only, run by the synchronous loop (default off)
     */
    public record Batching(int groupSize, int groupsPerStep, int maxPolicyLag, Duration rolloutTimeout, int oversampling,
                           boolean turnBarrier) {
        public Batching {
            if (turnBarrier && maxPolicyLag != 0) {
                throw new IllegalArgumentException("the turn barrier is a synchronous rollout: max policy lag must be 0, was " + maxPolicyLag);
            }
            Objects.requireNonNull(rolloutTimeout, "rolloutTimeout");
            positive("group size", groupSize);
            positive("groups per step", groupsPerStep);
            positive("oversampling", oversampling);
            if (maxPolicyLag < 0) throw new IllegalArgumentException("max policy lag must be 0 or more, was " + maxPolicyLag);
            if (rolloutTimeout.isNegative() || rolloutTimeout.isZero()) {
                throw new IllegalArgumentException("rollout timeout must be positive, was " + rolloutTimeout);
            }
        }
    }

    /**
     * @param lora               the adapter trained on the frozen base (default r=16, alpha 32, no dropout, every projection)
     * @param learningRate       AdamW's learning rate (constant) (default 1e-3)
     * @param klBeta             weight of the k3 KL penalty to the adapter-free reference (GRPO), 0 for none (default 0)
     * @param entropyBonus       weight of the policy's entropy per generated token subtracted from GRPO's loss, 0 for
     *                           none (default 0)
     * @param sftRewardThreshold SFT learns only from traces whose reward reaches it (default 0.9)
     * @param microBatchRows     rows per forward/backward (gradients accumulate over a batch's micro-batches): fewer rows
     *                           hold fewer activations, which a large base needs (a 0.5B model's 8 × 512-token GRPO step
     *                           fits 8 GB with 1 row) (default the learner's, {@link LearnerConfig#defaults})
     */
    public record Optimisation(LoraConfig lora, double learningRate, double klBeta, double entropyBonus,
                               double sftRewardThreshold, int microBatchRows) {
        public Optimisation {
            Objects.requireNonNull(lora, "lora");
            if (!(learningRate > 0)) throw new IllegalArgumentException("learning rate must be positive, was " + learningRate);
            if (!(klBeta >= 0)) throw new IllegalArgumentException("KL beta must be 0 or more, was " + klBeta);
            if (!(entropyBonus >= 0)) throw new IllegalArgumentException("entropy bonus must be 0 or more, was " + entropyBonus);
            if (microBatchRows < 1) throw new IllegalArgumentException("micro-batch rows must be at least 1, was " + microBatchRows);
        }
    }

    /** Every setting at its default (see the parameters above). */
    public static TrainingConfig defaults() {
        return builder().build();
    }

    /** A builder at the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this config's settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.algorithm = algorithm;
        b.groupSize = batching.groupSize;
        b.groupsPerStep = batching.groupsPerStep;
        b.maxPolicyLag = batching.maxPolicyLag;
        b.rolloutTimeout = batching.rolloutTimeout;
        b.oversampling = batching.oversampling;
        b.turnBarrier = batching.turnBarrier;
        b.athletes = athletes;
        b.rollouts = rollouts;
        b.lora = optimisation.lora;
        b.learningRate = optimisation.learningRate;
        b.klBeta = optimisation.klBeta;
        b.entropyBonus = optimisation.entropyBonus;
        b.sftRewardThreshold = optimisation.sftRewardThreshold;
        b.microBatchRows = optimisation.microBatchRows;
        b.checkpointEvery = checkpointEvery;
        b.seed = seed;
        b.limits = limits;
        b.device = device;
        return b;
    }

    /** One setter per setting, flat (the nested records' too); the defaults are those documented above. */
    public static final class Builder {
        private Algorithm algorithm = Algorithm.GRPO;
        private int groupSize = 8;
        private int groupsPerStep = 8;
        private int maxPolicyLag = 1;
        private Duration rolloutTimeout = Duration.ofMinutes(2);
        private int oversampling = 1;
        private boolean turnBarrier;
        private int athletes = 16;
        private RolloutSettings rollouts = new RolloutSettings(1.0, 96, 4, 1024);
        private LoraConfig lora = new LoraConfig(16, 32f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS));
        private double learningRate = 1e-3;
        private double klBeta = 0;
        private double entropyBonus = 0;
        private double sftRewardThreshold = 0.9;
        private int microBatchRows = LearnerConfig.defaults(learningRate).microBatchRows();
        private int checkpointEvery = 5;
        private long seed = 1;
        private Limits limits = Limits.defaults();
        private ComputeDevice device = ComputeDevice.cpu();

        private Builder() {
        }

        public Builder algorithm(Algorithm a) {
            this.algorithm = a;
            return this;
        }

        public Builder groupSize(int size) {
            this.groupSize = size;
            return this;
        }

        public Builder groupsPerStep(int groups) {
            this.groupsPerStep = groups;
            return this;
        }

        public Builder maxPolicyLag(int lag) {
            this.maxPolicyLag = lag;
            return this;
        }

        public Builder rolloutTimeout(Duration timeout) {
            this.rolloutTimeout = timeout;
            return this;
        }

        public Builder oversampling(int factor) {
            this.oversampling = factor;
            return this;
        }

        public Builder turnBarrier(boolean on) {
            this.turnBarrier = on;
            return this;
        }

        public Builder athletes(int count) {
            this.athletes = count;
            return this;
        }

        public Builder rollouts(RolloutSettings settings) {
            this.rollouts = settings;
            return this;
        }

        public Builder lora(LoraConfig adapter) {
            this.lora = adapter;
            return this;
        }

        public Builder learningRate(double lr) {
            this.learningRate = lr;
            return this;
        }

        public Builder klBeta(double beta) {
            this.klBeta = beta;
            return this;
        }

        public Builder entropyBonus(double bonus) {
            this.entropyBonus = bonus;
            return this;
        }

        public Builder sftRewardThreshold(double threshold) {
            this.sftRewardThreshold = threshold;
            return this;
        }

        public Builder microBatchRows(int rows) {
            this.microBatchRows = rows;
            return this;
        }

        public Builder checkpointEvery(int steps) {
            this.checkpointEvery = steps;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder limits(Limits l) {
            this.limits = l;
            return this;
        }

        public Builder device(ComputeDevice d) {
            this.device = d;
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming the setting that is out of range or missing */
        public TrainingConfig build() {
            return new TrainingConfig(algorithm, new Batching(groupSize, groupsPerStep, maxPolicyLag, rolloutTimeout, oversampling, turnBarrier),
                    athletes, rollouts, new Optimisation(lora, learningRate, klBeta, entropyBonus, sftRewardThreshold, microBatchRows),
                    checkpointEvery, seed, limits, device);
        }
    }

    /** The flat JSON form a run folder's {@code config.json} has always had, in its order. */
    @JsonValue
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("algorithm", algorithm.lowerName());
        json.put("groupSize", batching.groupSize);
        json.put("groupsPerStep", batching.groupsPerStep);
        json.put("maxPolicyLag", batching.maxPolicyLag);
        json.put("oversampling", batching.oversampling);
        if (batching.turnBarrier) json.put("turnBarrier", true);
        json.put("athletes", athletes);
        json.put("temperature", rollouts.temperature());
        json.put("maxNewTokens", rollouts.maxNewTokens());
        json.put("maxTurns", rollouts.maxTurns());
        json.put("maxTotalTokens", rollouts.maxTotalTokens());
        json.put("lora", optimisation.lora);
        json.put("learningRate", optimisation.learningRate);
        json.put("klBeta", optimisation.klBeta);
        json.put("entropyBonus", optimisation.entropyBonus);
        json.put("sftRewardThreshold", optimisation.sftRewardThreshold);
        json.put("checkpointEvery", checkpointEvery);
        json.put("rolloutTimeout", batching.rolloutTimeout);
        json.put("seed", seed);
        return json;
    }

    private static void positive(String name, long value) {
        if (value < 1) throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
}
