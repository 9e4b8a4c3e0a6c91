package dev.toolcoach.brain;

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
 * How a training job runs. Every number is checked here (or in the record that holds it), so a bad setting
 * fails before anything starts.
 *
 * @param algorithm       {@code grpo}, {@code dpo} or {@code sft}, any case
 * @param batching        how rollouts are grouped into learner steps
 * @param athletes        athlete actors (each runs one rollout at a time; all share the node's engine)
 * @param rollouts        how rollouts sample and how long they may run; the job's spec carries it to the athletes
 * @param optimisation    what is trained and how
 * @param checkpointEvery learner steps between checkpoints
 * @param seed            seeds sampling, LoRA initialisation and the learner
 * @param limits          when a job that no longer moves is ended, and how often a rollout may go out again
 */
public record TrainingConfig(String algorithm, Batching batching, int athletes, RolloutSettings rollouts,
                             Optimisation optimisation, int checkpointEvery, long seed, Limits limits) {

    public TrainingConfig {
        Algorithm.parse(algorithm);
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(rollouts, "rollouts");
        Objects.requireNonNull(optimisation, "optimisation");
        positive("athletes", athletes);
        positive("checkpoint interval", checkpointEvery);
        Objects.requireNonNull(limits, "limits");
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
     * @param groupSize      rollouts per query (G)
     * @param groupsPerStep  query groups per learner step
     * @param maxPolicyLag   versions a group's rollouts may lag the policy it is trained into; 0 is the
     *                       synchronous mode (roll out a batch, train, broadcast, repeat)
     * @param rolloutTimeout a rollout not back by then is dispatched again
     * @param oversampling   DAPO's dynamic sampling when above 1: a group whose rewards are all equal is dropped and a
     *                       fresh query takes its place, so steps train on {@code groupsPerStep} groups with signal; the
     *                       job samples at most this many times its {@code steps × groupsPerStep} groups (the bound that
     *                       ends it when the policy solves, or fails, nearly every query). 1: every group is trained
     *                       on, those without signal skipped by the step
     */
    public record Batching(int groupSize, int groupsPerStep, int maxPolicyLag, Duration rolloutTimeout, int oversampling) {
        public Batching {
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
     * @param lora               the adapter trained on the frozen base
     * @param learningRate       AdamW's learning rate (constant)
     * @param klBeta             weight of the k3 KL penalty to the adapter-free reference (GRPO), 0 for none
     * @param sftRewardThreshold SFT learns only from traces whose reward reaches it
     * @param microBatchRows     rows per forward/backward (gradients accumulate over a batch's micro-batches): fewer rows
     *                           hold fewer activations, which a large base needs (a 0.5B model's 8 × 512-token GRPO step
     *                           fits 8 GB with 1 row)
     */
    public record Optimisation(LoraConfig lora, double learningRate, double klBeta, double sftRewardThreshold,
                               int microBatchRows) {
        public Optimisation {
            Objects.requireNonNull(lora, "lora");
            if (!(learningRate > 0)) throw new IllegalArgumentException("learning rate must be positive, was " + learningRate);
            if (!(klBeta >= 0)) throw new IllegalArgumentException("KL beta must be 0 or more, was " + klBeta);
            if (microBatchRows < 1) throw new IllegalArgumentException("micro-batch rows must be at least 1, was " + microBatchRows);
        }

        /** The learner's default micro-batch. */
        public Optimisation(LoraConfig lora, double learningRate, double klBeta, double sftRewardThreshold) {
            this(lora, learningRate, klBeta, sftRewardThreshold, LearnerConfig.defaults(learningRate).microBatchRows());
        }
    }

    /**
     * GRPO, 8 rollouts per query, 4 queries per step, asynchronous with a lag of 1, 16 athletes,
     * temperature 1, LoRA r=16 on every projection, learning rate 2e-3, no KL.
     */
    public static TrainingConfig defaults() {
        return new TrainingConfig("grpo", new Batching(8, 4, 1, Duration.ofMinutes(2), 1), 16, new RolloutSettings(1.0, 96, 4, 1024),
                new Optimisation(new LoraConfig(16, 32f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), 2e-3, 0, 0.9), 10, 1,
                Limits.defaults());
    }

    public Algorithm parsedAlgorithm() {
        return Algorithm.parse(algorithm);
    }

    public TrainingConfig withAlgorithm(String name) {
        return new TrainingConfig(name, batching, athletes, rollouts, optimisation, checkpointEvery, seed, limits);
    }

    public TrainingConfig withGroups(int size, int perStep) {
        return withBatching(new Batching(size, perStep, batching.maxPolicyLag, batching.rolloutTimeout, batching.oversampling));
    }

    public TrainingConfig withMaxPolicyLag(int lag) {
        return withBatching(new Batching(batching.groupSize, batching.groupsPerStep, lag, batching.rolloutTimeout, batching.oversampling));
    }

    /** Dynamic sampling with at most {@code factor} × the job's groups sampled; 1 turns it off. */
    public TrainingConfig withOversampling(int factor) {
        return withBatching(new Batching(batching.groupSize, batching.groupsPerStep, batching.maxPolicyLag, batching.rolloutTimeout, factor));
    }

    private TrainingConfig withBatching(Batching b) {
        return new TrainingConfig(algorithm, b, athletes, rollouts, optimisation, checkpointEvery, seed, limits);
    }

    public TrainingConfig withAthletes(int count) {
        return new TrainingConfig(algorithm, batching, count, rollouts, optimisation, checkpointEvery, seed, limits);
    }

    public TrainingConfig withRollouts(RolloutSettings r) {
        return new TrainingConfig(algorithm, batching, athletes, r, optimisation, checkpointEvery, seed, limits);
    }

    public TrainingConfig withOptimisation(LoraConfig adapter, double lr, double beta) {
        return new TrainingConfig(algorithm, batching, athletes, rollouts,
                new Optimisation(adapter, lr, beta, optimisation.sftRewardThreshold, optimisation.microBatchRows), checkpointEvery,
                seed, limits);
    }

    /** The same with {@code rows} rows per forward/backward of the learner (see {@link Optimisation#microBatchRows}). */
    public TrainingConfig withMicroBatchRows(int rows) {
        return new TrainingConfig(algorithm, batching, athletes, rollouts, new Optimisation(optimisation.lora, optimisation.learningRate,
                optimisation.klBeta, optimisation.sftRewardThreshold, rows), checkpointEvery, seed, limits);
    }

    public TrainingConfig withCheckpointEvery(int steps) {
        return new TrainingConfig(algorithm, batching, athletes, rollouts, optimisation, steps, seed, limits);
    }

    public TrainingConfig withSeed(long s) {
        return new TrainingConfig(algorithm, batching, athletes, rollouts, optimisation, checkpointEvery, s, limits);
    }

    public TrainingConfig withLimits(Limits l) {
        return new TrainingConfig(algorithm, batching, athletes, rollouts, optimisation, checkpointEvery, seed, l);
    }

    /** The flat JSON form a run folder's {@code config.json} has always had, in its order. */
    @JsonValue
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("algorithm", algorithm);
        json.put("groupSize", batching.groupSize);
        json.put("groupsPerStep", batching.groupsPerStep);
        json.put("maxPolicyLag", batching.maxPolicyLag);
        json.put("oversampling", batching.oversampling);
        json.put("athletes", athletes);
        json.put("temperature", rollouts.temperature());
        json.put("maxNewTokens", rollouts.maxNewTokens());
        json.put("maxTurns", rollouts.maxTurns());
        json.put("maxTotalTokens", rollouts.maxTotalTokens());
        json.put("lora", optimisation.lora);
        json.put("learningRate", optimisation.learningRate);
        json.put("klBeta", optimisation.klBeta);
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
