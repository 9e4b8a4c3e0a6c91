package dev.toolcoach.learn.core;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.learn.batch.PaddedBatch;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.checkpoint.Checkpoint;
import dev.toolcoach.learn.loss.DpoBatchBuilder;
import dev.toolcoach.learn.loss.DpoLoss;
import dev.toolcoach.learn.loss.GrpoBatchBuilder;
import dev.toolcoach.learn.loss.GrpoLoss;
import dev.toolcoach.learn.loss.LossTerm;
import dev.toolcoach.learn.loss.SftBatchBuilder;
import dev.toolcoach.learn.loss.SftLoss;
import dev.toolcoach.model.TokenScores;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.learn.optim.AdamW;
import dev.toolcoach.learn.optim.GradientClipping;
import dev.toolcoach.learn.optim.LossScaler;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.nn.NoGrad;
import dev.toolcoach.model.nn.SharedPrefixInputs;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns scored rollouts into weight updates: one call per batch, one optimiser step per epoch with
 * gradients accumulated over micro-batches, then a new policy version. Not thread-safe: one learner
 * owns one model.
 */
public final class LearnerCore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerCore.class);
    /** Shorter shared prompts are scored row by row: the prefix's own attention and the concatenations cost more ops. */
    static final int MIN_SHARED_PREFIX = 16;

    private final Transformer model;
    private final TrainableWeights weights;
    private final LearnerConfig config;
    private final NDManager manager;
    private final AdamW optimiser;
    private final LossScaler scaler;
    private SeededRandom random;
    private int version;

    public LearnerCore(Transformer model, TrainableWeights weights, LearnerConfig config) {
        this.model = model;
        this.weights = weights;
        this.config = config;
        this.manager = model.manager().newSubManager();
        this.optimiser = new AdamW(config.optimiser(), weights.parameters(), manager);
        this.scaler = LossScaler.forBase(model.dtype());
        this.random = new SeededRandom(config.seed());
        this.version = weights.adapter() == null ? 0 : weights.adapter().version();
    }

    /** GRPO on complete groups; groups without reward variance are skipped and counted. */
    public GrpoMetrics trainGrpo(List<ScoredGroup> groups) {
        GrpoBatchBuilder.Batch batch = new GrpoBatchBuilder(config.grpo()).build(groups);
        if (batch.rows().isEmpty()) {
            return new GrpoMetrics(version, 0, 0, 0, 0, 0, 0, 0, 0, 0, batch.skippedGroups(), 0, 0, 0);
        }
        boolean needsReference = config.grpo().beta() > 0;
        requireReference(needsReference, "a KL penalty (beta > 0)");
        List<List<BatchRow>> micro = microBatches(batch.rows());
        List<float[]> reference = needsReference ? referenceLogprobs(micro, config.grpo().temperature()) : null;
        double staleness = PaddedBatch.of(batch.rows()).meanStaleness(version);
        GrpoLoss loss = new GrpoLoss(config.grpo());
        GrpoLoss.Stats total = GrpoLoss.Stats.ZERO;
        double gradNorm = 0;
        double lr = 0;
        int skippedUpdates = 0;
        for (int epoch = 0; epoch < config.grpo().epochs(); epoch++) {
            lr = config.schedule().at(optimiser.steps());
            GrpoLoss.Stats epochStats = GrpoLoss.Stats.ZERO;
            for (int i = 0; i < micro.size(); i++) {
                epochStats = epochStats.plus(backward(micro.get(i), i, config.grpo().temperature(), (scores, tensors, scope, index) -> loss.compute(scores,
                        reference == null ? null : scope.create(reference.get(index), scores.logprobs().getShape()), tensors)));
            }
            total = total.plus(epochStats);
            gradNorm = gradientNorm();
            skippedUpdates += applyUpdate(epochStats.loss(), gradNorm, lr) ? 0 : 1;
        }
        nextVersion();
        return GrpoMetrics.of(version, total, config.grpo().epochs(), gradNorm, batch.skippedGroups(), staleness, lr,
                skippedUpdates);
    }

    /** DPO on pairs drawn from each group; the reference is the model with its adapter left out. */
    public DpoMetrics trainDpo(List<ScoredGroup> groups) {
        requireReference(true, "DPO");
        List<BatchRow> rows = new DpoBatchBuilder(config.dpo()).build(groups);
        if (rows.isEmpty()) {
            return new DpoMetrics(version, 0, 0, 0, 0, 0, 0, 0);
        }
        // a micro-batch must hold whole pairs
        List<List<BatchRow>> micro = microBatches(rows, Math.max(2, config.microBatchRows() - config.microBatchRows() % 2));
        List<float[]> reference = referenceLogprobs(micro, 1f);
        DpoLoss loss = new DpoLoss(config.dpo());
        double lr = config.schedule().at(optimiser.steps());
        DpoLoss.Stats total = DpoLoss.Stats.ZERO;
        for (int i = 0; i < micro.size(); i++) {
            total = total.plus(backward(micro.get(i), i, 1f, (scores, tensors, scope, index) -> loss.compute(scores.logprobs(),
                    scope.create(reference.get(index), scores.logprobs().getShape()), tensors)));
        }
        double gradNorm = gradientNorm();
        int skippedUpdates = applyUpdate(total.loss(), gradNorm, lr) ? 0 : 1;
        nextVersion();
        return new DpoMetrics(version, total.loss(), total.accuracy(), total.meanMargin(), total.pairs(), gradNorm, lr,
                skippedUpdates);
    }

    /** Supervised step on the traces whose reward reaches {@code rewardThreshold} (distillation). */
    public SftMetrics trainSft(List<ScoredTrace> traces, double rewardThreshold) {
        SftBatchBuilder.Selection selection = new SftBatchBuilder(rewardThreshold).build(traces);
        if (selection.rows().isEmpty()) {
            return new SftMetrics(version, 0, 0, selection.rejected(), 0, 0, 0);
        }
        SftLoss loss = new SftLoss();
        double lr = config.schedule().at(optimiser.steps());
        double total = 0;
        for (List<BatchRow> mb : microBatches(selection.rows())) {
            total += backward(mb, 0, 1f, (scores, tensors, scope, index) -> loss.compute(scores, tensors));
        }
        double gradNorm = gradientNorm();
        int skippedUpdates = applyUpdate(total, gradNorm, lr) ? 0 : 1;
        nextVersion();
        long tokens = selection.rows().stream().mapToLong(r -> r.sequence().generatedCount()).sum();
        return new SftMetrics(version, total, tokens, selection.rejected(), gradNorm, lr, skippedUpdates);
    }

    /**
     * Scores held-out demonstrations without updating anything (a warm-up's validation): the mean negative
     * log-likelihood and the mean next-token entropy per generated token, both under teacher forcing.
     */
    public SftScore scoreSft(List<ScoredTrace> traces, double rewardThreshold) {
        List<BatchRow> rows = new SftBatchBuilder(rewardThreshold).build(traces).rows();
        double nll = 0;
        double entropy = 0;
        long tokens = 0;
        try (NoGrad ignored = NoGrad.enter()) {
            for (List<BatchRow> mb : microBatches(rows)) {
                try (NDManager scope = manager.newSubManager()) {
                    PaddedBatch padded = PaddedBatch.of(mb);
                    BatchTensors tensors = padded.toTensors(scope);
                    TokenScores scores = scores(padded, tensors.targets(), scope, weights.adapter(), false, 1f);
                    NDArray mask = tensors.mask().toType(DataType.FLOAT32, false);
                    nll -= scores.logprobs().mul(mask).sum().getFloat();
                    entropy += scores.entropy().mul(mask).sum().getFloat();
                    tokens += Math.round(mask.sum().getFloat());
                }
            }
        }
        return tokens == 0 ? new SftScore(Double.NaN, Double.NaN, 0) : new SftScore(nll / tokens, entropy / tokens, tokens);
    }

    /** @param temperature the policy's log-probs are taken at (the rollouts' sampling temperature for GRPO, else 1) */
    private <S> S backward(List<BatchRow> rows, int index, float temperature, MicroBatchLoss<S> loss) {
        try (NDManager scope = manager.newSubManager()) {
            PaddedBatch padded = PaddedBatch.of(rows);
            BatchTensors tensors = padded.toTensors(scope);
            try (GradientCollector collector = Engine.getInstance().newGradientCollector()) {
                LossTerm<S> term = loss.compute(scores(padded, tensors.targets(), scope, weights.adapter(), true, temperature), tensors,
                        scope, index);
                collector.backward(scaler.scaled(term.loss()));
                return term.stats();
            }
        }
    }

    /**
     * Token scores of a micro-batch under {@code adapter} (null: the frozen reference). Rows that begin alike (a GRPO
     * group's rollouts share their prompt: about 40% of a finance rollout's tokens) have that prefix computed once, up
     * to the first position any row trains on; a prefix shorter than {@link #MIN_SHARED_PREFIX} is not worth its extra ops.
     */
    private TokenScores scores(PaddedBatch padded, NDArray targets, NDManager scope, LoraAdapter adapter, boolean training,
                               float temperature) {
        int shared = sharedPrefix(padded);
        boolean entropyGradient = training && config.grpo().entropyBonus() > 0;
        if (shared >= MIN_SHARED_PREFIX) {
            NDArray hidden = model.hiddenAfterSharedPrefix(SharedPrefixInputs.of(padded.inputRows(), padded.attentionRows(), shared),
                    scope, adapter, training);
            return TokenScores.scoreFrom(model, hidden, targets, shared, temperature, entropyGradient);
        }
        NDArray hidden = model.hidden(StepInputs.scoring(padded.inputRows(), padded.attentionRows()), scope, null, adapter,
                training, false);
        return TokenScores.score(model, hidden, targets, temperature, entropyGradient);
    }

    /** The prefix all rows share that no row trains on (0 where sharing cannot help or cannot be done). */
    private int sharedPrefix(PaddedBatch padded) {
        if (padded.rows() < 2 || model.config().rope().lengthDependent()) {
            return 0;
        }
        int shared = Math.min(SharedPrefixInputs.commonPrefix(padded.inputRows(), padded.attentionRows()), padded.length() - 1);
        for (int r = 0; r < padded.rows(); r++) {
            for (int i = 0; i < shared; i++) {
                if (padded.mask()[r * padded.length() + i] != 0f) {
                    shared = i;
                    break;
                }
            }
        }
        return shared;
    }

    /** Log-probs of the frozen reference (adapter left out), once per micro-batch, kept on the host across epochs. */
    private List<float[]> referenceLogprobs(List<List<BatchRow>> micro, float temperature) {
        List<float[]> out = new ArrayList<>();
        for (List<BatchRow> rows : micro) {
            try (NDManager scope = manager.newSubManager()) {
                PaddedBatch padded = PaddedBatch.of(rows);
                NDArray targets = scope.create(padded.targets(), new Shape(padded.rows(), padded.length()));
                out.add(scores(padded, targets, scope, null, false, temperature).logprobs().stopGradient().toFloatArray());
            }
        }
        return out;
    }

    /**
     * Global norm of the accumulated gradients (loss scaling undone) before clipping; scales them down to the configured
     * maximum.
     */
    private double gradientNorm() {
        scaler.unscale(weights.parameters());
        return GradientClipping.clipGlobalNorm(weights.parameters(), config.maxGradNorm(), manager);
    }

    /**
     * Takes the optimiser step unless the loss or the gradient norm is not finite: one NaN in AdamW's
     * moments would poison every later step, so such an update is skipped (and counted by the caller).
     *
     * @return whether the update was applied
     */
    private boolean applyUpdate(double loss, double gradNorm, double lr) {
        Engine.getInstance().setRandomSeed((int) random.nextLong()); // next step's dropout masks follow our seed
        boolean finite = Double.isFinite(loss) && Double.isFinite(gradNorm);
        if (finite) {
            optimiser.step(lr);
        } else {
            LOG.warn("loss {} / gradient norm {} at step {}: update skipped (loss scale {})", loss, gradNorm, optimiser.steps(),
                    scaler.scale());
        }
        scaler.update(finite);
        GradientClipping.zeroGradients(weights.parameters());
        return finite;
    }

    /** A step changed the weights: they are the next version. */
    private void nextVersion() {
        version++;
        if (weights.adapter() != null) {
            weights.adapter().setVersion(version);
        }
    }

    private void requireReference(boolean needed, String what) {
        if (needed && !weights.hasReference()) {
            throw new IllegalStateException(what + " needs a frozen reference, but all base weights are being trained");
        }
    }

    private List<List<BatchRow>> microBatches(List<BatchRow> rows) {
        return microBatches(rows, config.microBatchRows());
    }

    private static List<List<BatchRow>> microBatches(List<BatchRow> rows, int size) {
        List<List<BatchRow>> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i += size) {
            out.add(rows.subList(i, Math.min(rows.size(), i + size)));
        }
        return out;
    }

    /**
     * The adapter as it stands, with its version: what the learner publishes to inference engines.
     *
     * @throws IllegalStateException when the base weights themselves are trained: there is no adapter
     */
    public AdapterWeights adapterWeights() {
        if (weights.adapter() == null) throw new IllegalStateException("the base weights are trained: there is no adapter to publish");
        return weights.adapter().snapshot();
    }

    public int version() {
        return version;
    }

    /** Optimiser steps taken. */
    public long step() {
        return optimiser.steps();
    }

    /** The learner's generator: callers that sample with it get reproducible runs across a resume. */
    public SeededRandom random() {
        return random;
    }

    public Checkpoint checkpoint(byte[] cursor) {
        return new Checkpoint(optimiser.steps(), version, random.state(), cursor, weights.snapshot(), optimiser.state());
    }

    /**
     * A new job's starting weights: a given adapter (one a user continues), as adapter version 1, so engines that wait
     * for version 1 never sample the bare base in its place. Its LoRA settings must be this learner's.
     *
     * @throws IllegalStateException after the first step, or when the learner trains no adapter
     * @throws IllegalArgumentException when the adapter's settings or shapes differ from this learner's
     */
    public void startFrom(AdapterWeights start) {
        if (optimiser.steps() != 0 || version != 0) throw new IllegalStateException("a job starts from an adapter before its first step");
        if (weights.adapter() == null) throw new IllegalStateException("this learner trains no adapter to start from");
        try (NoGrad ignored = NoGrad.enter()) { // writes into trainable weights
            weights.adapter().restore(new AdapterWeights(start.config(), 1, start.tensors()));
        }
        version = 1;
    }

    /** Puts the learner back exactly where {@code checkpoint} was taken. */
    public void restore(Checkpoint checkpoint) {
        try (NoGrad ignored = NoGrad.enter()) { // writes into trainable weights, on whatever thread resumes
            weights.restore(checkpoint.weights());
        }
        optimiser.restore(checkpoint.optimiser(), checkpoint.step());
        random = new SeededRandom(checkpoint.rngState());
        version = checkpoint.version();
        if (weights.adapter() != null) {
            weights.adapter().setVersion(version);
        }
    }

    @Override
    public void close() {
        optimiser.close();
        manager.close();
    }
}
