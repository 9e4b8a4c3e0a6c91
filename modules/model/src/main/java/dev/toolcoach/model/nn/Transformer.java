package dev.toolcoach.model.nn;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.Activation;
import dev.toolcoach.model.TorchRuntime;
import dev.toolcoach.model.NativeMemory;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.lora.LoraAdapter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Llama-family decoder (RMSNorm, rotate-half RoPE of any {@code Rope} type over all or part of each head,
 * grouped-query attention with an optional sliding window, SwiGLU, optional tied embeddings, q/k/v and o biases and
 * Qwen3's per-head q/k norm) as a plain forward over DJL NDArrays; every {@code ModelFamily} runs through it.
 *
 * <p>Every intermediate is created from the inputs (never with a weight as the receiver), so it lives in the
 * manager of the caller's step inputs and is freed when the caller closes that manager.
 */
public final class Transformer implements AutoCloseable {
    private final ModelConfig config;
    private final NDManager manager;
    private final ModelWeights weights;
    private final NDArray ropeCos;
    private final NDArray ropeSin;
    private final NDArray rotateHalf;
    /** 1/sqrt(headDim) and the norms' epsilon as arrays made once: a Java number in an op becomes a new array each call. */
    private final NDArray attentionScale;
    private final NDArray normEps;
    private final DataType dtype;

    private Transformer(ModelConfig config, NDManager manager, ModelWeights weights) {
        NativeMemory.keepTrimmed();
        this.config = config;
        this.manager = manager;
        this.weights = weights;
        this.dtype = weights.embedding().getDataType();
        int hd = config.headDim();
        int half = config.rotaryDim() / 2;
        if (config.rope().lengthDependent()) {
            ropeCos = null; // computed per call: see rotation(step)
            ropeSin = null;
        } else {
            float[] cos = new float[config.contextLength() * hd];
            float[] sin = new float[config.contextLength() * hd];
            double[] freqs = config.rope().invFreq(config.rotaryDim(), 1);
            for (int p = 0; p < config.contextLength(); p++) {
                rotate(cos, sin, p * hd, p, freqs);
            }
            ropeCos = inDtype(manager.create(cos, new Shape(config.contextLength(), hd)));
            ropeSin = inDtype(manager.create(sin, new Shape(config.contextLength(), hd)));
        }
        // rotate_half(x) = [-x2, x1] over the rotary dimensions as one matmul instead of split, neg and concat
        float[] r = new float[hd * hd];
        for (int j = 0; j < half; j++) {
            r[(j + half) * hd + j] = -1f;
            r[j * hd + j + half] = 1f;
        }
        rotateHalf = inDtype(manager.create(r, new Shape(hd, hd)));
        attentionScale = inDtype(manager.create((float) (1.0 / Math.sqrt(hd))));
        normEps = manager.create(config.normEps());
    }

    /** A model sharing {@code base}'s config, rotation tables and every weight not in {@code weights}' own arrays. */
    private Transformer(Transformer base, NDManager manager, ModelWeights weights) {
        this.config = base.config;
        this.manager = manager;
        this.weights = weights;
        this.dtype = base.dtype;
        this.ropeCos = base.ropeCos;
        this.ropeSin = base.ropeSin;
        this.rotateHalf = base.rotateHalf;
        this.attentionScale = base.attentionScale;
        this.normEps = base.normEps;
    }

    /**
     * This model with {@code adapter} merged into the projections it targets (W + scale * A B, fused as the base fuses
     * them), for inference: those projections are new arrays in a sub-manager of {@code parent}, which closing the
     * result frees; every other weight, the rotation tables and the config stay this model's own, shared. A forward of
     * the result without an adapter equals a forward of this model with it, up to float rounding.
     */
    public Transformer withAdapterMerged(LoraAdapter adapter, NDManager parent) {
        NDManager own = parent.newSubManager();
        try {
            List<LayerWeights> merged = new ArrayList<>();
            for (int l = 0; l < config.nLayers(); l++) {
                LayerWeights w = weights.layers().get(l);
                merged.add(new LayerWeights(w.attnNorm(),
                        merge(w.wqkv(), adapter, l, own, new String[] {"q_proj", "k_proj", "v_proj"}),
                        w.qkvBias(), w.qNorm(), w.kNorm(),
                        merge(w.wo(), adapter, l, own, new String[] {"o_proj"}),
                        w.oBias(), w.ffnNorm(),
                        merge(w.wGateUp(), adapter, l, own, new String[] {"gate_proj", "up_proj"}),
                        merge(w.wDown(), adapter, l, own, new String[] {"down_proj"})));
            }
            return new Transformer(this, own,
                    new ModelWeights(weights.embedding(), List.copyOf(merged), weights.finalNorm(), weights.lmHead()));
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    /** A fused projection [in, out] plus its parts' adapter deltas, or the projection itself when none is targeted. */
    private NDArray merge(NDArray fused, LoraAdapter adapter, int layer, NDManager own, String[] parts) {
        if (Arrays.stream(parts).noneMatch(adapter::targets)) {
            return fused;
        }
        try (NDManager scope = own.newSubManager()) {
            NDList deltas = new NDList();
            for (String part : parts) {
                int out = LoraAdapter.inOut(config, part)[1];
                deltas.add(adapter.targets(part) ? adapter.weightDelta(layer, part, scope)
                        : scope.zeros(new Shape(fused.getShape().get(0), out)));
            }
            NDArray delta = deltas.size() == 1 ? deltas.get(0) : NDArrays.concat(deltas, 1);
            NDArray fused32 = inF32(fused);
            if (fused32 != fused) {
                fused32.attach(scope); // a half base's f32 copy is made in the base's manager
            }
            NDArray sum = inDtype(delta.add(fused32)); // made from the delta: it lives in the scope until attached
            sum.attach(own);
            return sum;
        }
    }

    /**
     * Bytes the projections {@code adapter} targets take: what {@link #withAdapterMerged} allocates. An engine merges
     * when that is affordable and applies the adapter at every step otherwise.
     */
    public long mergedBytes(LoraAdapter adapter) {
        long bytes = 0;
        for (LayerWeights w : weights.layers()) {
            for (Object[] fused : new Object[][] {{w.wqkv(), new String[] {"q_proj", "k_proj", "v_proj"}},
                    {w.wo(), new String[] {"o_proj"}}, {w.wGateUp(), new String[] {"gate_proj", "up_proj"}},
                    {w.wDown(), new String[] {"down_proj"}}}) {
                if (Arrays.stream((String[]) fused[1]).anyMatch(adapter::targets)) {
                    NDArray a = (NDArray) fused[0];
                    bytes += a.size() * a.getDataType().getNumOfBytes();
                }
            }
        }
        return bytes;
    }

    /** {@code a} in the compute type (itself for f32; a half copy, in {@code a}'s manager, for a half base). */
    private NDArray inDtype(NDArray a) {
        return dtype == DataType.FLOAT32 ? a : a.toType(dtype, false);
    }

    /** {@code a} in f32, for the steps a half base still computes in f32 (norms, softmax, the adapter, the logits). */
    private static NDArray inF32(NDArray a) {
        return a.getDataType() == DataType.FLOAT32 ? a : a.toType(DataType.FLOAT32, false);
    }

    /** cos and sin of one position's rotation at {@code at}, scaled by the rope's attention factor. */
    private void rotate(float[] cos, float[] sin, int at, long position, double[] freqs) {
        int half = config.rotaryDim() / 2;
        float scale = (float) config.rope().attentionScaling();
        for (int i = 0; i < half; i++) {
            float angle = position * (float) freqs[i]; // float, as llama2.c's run.c and Transformers compute it
            float c = (float) Math.cos(angle);
            float s = (float) Math.sin(angle);
            cos[at + i] = cos[at + i + half] = scale == 1f ? c : c * scale;
            sin[at + i] = sin[at + i + half] = scale == 1f ? s : s * scale;
        }
        for (int i = 2 * half; i < config.headDim(); i++) { // partial rotary: the rest of the head passes through
            cos[at + i] = 1f;
        }
    }

    /**
     * cos and sin [B, L, 1, hd] for a rope whose frequencies depend on the sequence length (dynamic NTK, longrope).
     * As in Transformers, one forward's frequencies follow its last position: a row's whole prompt is rotated for
     * the prompt's length, and each decode step's new token for the length it brings the sequence to, while the
     * keys already cached keep the rotation they were computed with. Rows are independent (each row's own length),
     * so a sequence decodes the same whatever it is batched with.
     */
    private NDArray[] rotation(StepInputs step, NDManager scope) {
        int hd = config.headDim();
        int l = step.newTokens();
        float[] cos = new float[step.rows() * l * hd];
        float[] sin = new float[step.rows() * l * hd];
        for (int r = 0; r < step.rows(); r++) {
            long last = 0;
            for (int i = 0; i < l; i++) {
                last = Math.max(last, step.positions()[r * l + i]);
            }
            double[] freqs = config.rope().invFreq(config.rotaryDim(), (int) last + 1);
            for (int i = 0; i < l; i++) {
                rotate(cos, sin, (r * l + i) * hd, step.positions()[r * l + i], freqs);
            }
        }
        Shape shape = new Shape(step.rows(), l, 1, hd);
        return new NDArray[] {inDtype(scope.create(cos, shape)), inDtype(scope.create(sin, shape))};
    }

    /**
     * Puts HF-named host weights on the device of {@code parent}.
     *
     * @throws IllegalArgumentException when a tensor is missing or its shape does not fit the config
     */
    public static Transformer create(ModelConfig config, Map<String, HostTensor> hfTensors, NDManager parent) {
        NDManager manager = parent.newSubManager();
        try {
            return new Transformer(config, manager, ModelWeights.fromHf(config, hfTensors, manager));
        } catch (RuntimeException e) {
            manager.close(); // nothing half-loaded survives
            throw e;
        }
    }

    /**
     * Streams located checkpoint tensors onto the device of {@code parent} in f32 (see {@link ModelWeights#load}).
     *
     * @throws IllegalArgumentException when a tensor is missing or its shape does not fit the config
     */
    public static Transformer load(ModelConfig config, Map<String, StoredTensor> tensors, NDManager parent) {
        return load(config, tensors, parent, DataType.FLOAT32);
    }

    /**
     * Streams located checkpoint tensors onto the device of {@code parent} with the base (and the activations) in
     * {@code dtype}: FLOAT32, FLOAT16 or BFLOAT16 (half the weight bytes; norms, softmax, the adapter and the logits stay
     * in f32, as Transformers computes a half model). An adapter trains over a 16-bit base only where the JNI's casts
     * carry the gradient ({@link TorchRuntime#castsCarryGradient()}: ToolCoach's build of DJL's JNI); bf16 needs that
     * build too, since DJL 0.35.1's own JNI aborts the JVM on a bf16 tensor.
     *
     * @throws IllegalArgumentException for another type, or bf16 on a JNI that cannot hold it
     */
    public static Transformer load(ModelConfig config, Map<String, StoredTensor> tensors, NDManager parent, DataType dtype) {
        if (dtype != DataType.FLOAT32 && dtype != DataType.FLOAT16 && dtype != DataType.BFLOAT16) {
            throw new IllegalArgumentException("a base is held in float32, float16 or bfloat16, not " + dtype);
        }
        if (dtype == DataType.BFLOAT16 && !TorchRuntime.current().features().contains(TorchRuntime.BF16)) {
            throw new IllegalArgumentException("a bfloat16 base needs ToolCoach's build of DJL's JNI (deploy/gpu/install-torch-jni.sh): "
                    + "DJL 0.35.1's own aborts the JVM on bf16");
        }
        NDManager manager = parent.newSubManager();
        try {
            return new Transformer(config, manager, ModelWeights.load(config, tensors, manager, dtype));
        } catch (RuntimeException e) {
            manager.close(); // nothing half-loaded survives
            throw e;
        }
    }

    /** The base's (and the activations') type: FLOAT32, or FLOAT16 / BFLOAT16 for a half base. */
    public DataType dtype() {
        return dtype;
    }

    public ModelConfig config() {
        return config;
    }

    public ModelWeights weights() {
        return weights;
    }

    public Device device() {
        return manager.getDevice();
    }

    public NDManager manager() {
        return manager;
    }

    /**
     * Logits [B, L or 1, vocab] for the step's new tokens.
     *
     * @param step     host-side token ids, positions and mask of the new tokens
     * @param scope    per-call manager: every intermediate and the result live there; close it when done
     * @param cache    null for a cache-free (teacher-forced) pass; otherwise the step's rows are slots of it
     *                 ({@link StepInputs#slotted}): their new keys and values are written there and attention reads
     *                 each row's own slot
     * @param lora     null runs the base model (e.g. the KL reference); otherwise the adapter is applied
     * @param training enables LoRA dropout
     * @param lastOnly project only the last position to the vocabulary (prefill and decode)
     */
    public NDArray forward(StepInputs step, NDManager scope, KvSlots cache, LoraAdapter lora, boolean training, boolean lastOnly) {
        return head(hidden(step, scope, cache, lora, training, lastOnly));
    }

    /**
     * The final-normed hidden states [B, L or 1, dim] that {@link #forward} projects to the vocabulary; scoring projects
     * them a slice at a time ({@code TokenScores.score}) so that a long batch never holds several [B, L, vocab] arrays.
     */
    public NDArray hidden(StepInputs step, NDManager scope, KvSlots cache, LoraAdapter lora, boolean training, boolean lastOnly) {
        if (dtype != DataType.FLOAT32 && lora != null && lora.parameters().stream().anyMatch(NDArray::hasGradient)
                && !TorchRuntime.castsCarryGradient()) {
            // DJL 0.35.1's toType drops autograd history: an adapter over a half base would silently get no gradient
            throw new IllegalStateException("an adapter cannot be trained over a " + dtype + " base with DJL's own JNI (its casts carry "
                    + "no gradient): load the learner's base in float32, or use ToolCoach's build (deploy/gpu/install-torch-jni.sh)");
        }
        KvSlots.Access slots = null;
        if (cache != null) {
            if (step.slots() == null) {
                throw new IllegalArgumentException("a cached forward needs slotted step inputs (StepInputs.slotted)");
            }
            cache.reserve(step.writeColumnLimit());
            slots = cache.open(step, scope);
        }
        checkInRange(step);
        NDArray tokens = step.tokenArray(scope);
        NDArray mask = step.maskArray(scope, config.slidingWindow());
        if (dtype != DataType.FLOAT32) {
            // -1e4, not -1e9 (-inf in f16): a row hidden whole must stay finite after its scores are added, or its NaN
            // output poisons every row that reads its keys with weight 0
            mask = mask.maximum(ScopedConstant.like(mask, -1e4)).toType(dtype, false);
        }
        NDArray cos;
        NDArray sin;
        if (ropeCos == null) {
            NDArray[] cosSin = rotation(step, scope);
            cos = cosSin[0];
            sin = cosSin[1];
        } else {
            NDArray positions = step.positionArray(scope);
            cos = positions.getNDArrayInternal().embedding(positions, ropeCos, SparseFormat.DENSE).singletonOrThrow().expandDims(2);
            sin = positions.getNDArrayInternal().embedding(positions, ropeSin, SparseFormat.DENSE).singletonOrThrow().expandDims(2);
        }
        NDArray x = tokens.getNDArrayInternal().embedding(tokens, weights.embedding(), SparseFormat.DENSE).singletonOrThrow();
        for (int l = 0; l < config.nLayers(); l++) {
            x = x.add(attention(l, rmsNorm(x, weights.layers().get(l).attnNorm(), 2), cos, sin, mask, slots, lora, training));
            x = x.add(mlp(l, rmsNorm(x, weights.layers().get(l).ffnNorm(), 2), lora, training));
        }
        if (lastOnly) {
            x = lastPositions(step, x, scope);
        }
        return rmsNorm(x, weights.finalNorm(), 2);
    }

    /** [B, 1, dim]: each row's last real position (rows of a slotted prefill are padded on the right). */
    private static NDArray lastPositions(StepInputs step, NDArray x, NDManager scope) {
        if (step.lastIndex() == null || step.newTokens() == 1) {
            return x.get(new NDIndex(":, -1:, :"));
        }
        long[] rows = new long[step.rows()];
        long[] last = new long[step.rows()];
        for (int r = 0; r < rows.length; r++) {
            rows[r] = r;
            last[r] = step.lastIndex()[r];
        }
        return x.get(new NDIndex("{}, {}", scope.create(rows), scope.create(last))).expandDims(1);
    }

    /** Logits [..., vocab] of final-normed hidden states; they live in the manager of {@code hidden}. */
    public NDArray head(NDArray hidden) {
        if (weights.lmHead() != null) {
            return inF32(hidden.matMul(weights.lmHead()));
        }
        NDArray tiedHead = weights.embedding().transpose(); // made per call so gradients reach the embedding
        tiedHead.attach(hidden.getManager());
        return inF32(hidden.matMul(tiedHead));
    }

    /** Out-of-range ids or positions would otherwise surface as an opaque native indexing error. */
    private void checkInRange(StepInputs step) {
        for (int id : step.tokens()) {
            if (id < 0 || id >= config.vocabSize()) {
                throw new IllegalArgumentException("token id " + id + " is outside the vocabulary of " + config.vocabSize());
            }
        }
        for (long p : step.positions()) {
            if (p >= config.contextLength()) {
                throw new IllegalArgumentException("position " + p + " is beyond the model's context of " + config.contextLength());
            }
        }
    }

    private NDArray attention(int layer, NDArray h, NDArray cos, NDArray sin, NDArray mask, KvSlots.Access cache,
                              LoraAdapter lora, boolean training) {
        LayerWeights w = weights.layers().get(layer);
        long b = h.getShape().get(0);
        long len = h.getShape().get(1);
        int hd = config.headDim();
        int heads = config.nHeads();
        int kvHeads = config.nKvHeads();
        NDArray qkv = h.matMul(w.wqkv());
        if (w.qkvBias() != null) {
            qkv = qkv.add(w.qkvBias());
        }
        if (lora != null && (lora.targets("q_proj") || lora.targets("k_proj") || lora.targets("v_proj"))) {
            NDArray h32 = inF32(h);
            qkv = qkv.add(inDtype(NDArrays.concat(new NDList(
                    projectionDelta(lora, layer, "q_proj", h32, config.qDim(), training),
                    projectionDelta(lora, layer, "k_proj", h32, config.kvDim(), training),
                    projectionDelta(lora, layer, "v_proj", h32, config.kvDim(), training)), 2)));
        }
        NDList qkAndV = qkv.split(new long[] {config.qDim() + config.kvDim()}, 2);
        NDArray qk = qkAndV.get(0).reshape(b, len, heads + kvHeads, hd);
        if (w.qNorm() != null) { // Qwen3: each head RMS-normed before RoPE
            NDList qAndKRaw = qk.split(new long[] {heads}, 2);
            qk = NDArrays.concat(new NDList(rmsNorm(qAndKRaw.get(0), w.qNorm(), 3), rmsNorm(qAndKRaw.get(1), w.kNorm(), 3)), 2);
        }
        qk = qk.mul(cos).add(qk.matMul(rotateHalf).mul(sin));
        NDList qAndK = qk.split(new long[] {heads}, 2);
        NDArray q = qAndK.get(0).transpose(0, 2, 1, 3); // [B, H, L, hd]
        NDArray k;
        NDArray v;
        if (cache == null) {
            k = qAndK.get(1).transpose(0, 2, 1, 3);
            v = qkAndV.get(1).reshape(b, len, kvHeads, hd).transpose(0, 2, 1, 3);
        } else {
            cache.write(layer, qAndK.get(1), qkAndV.get(1));
            k = cache.keys(layer, h.getManager());
            v = cache.values(layer, h.getManager());
        }
        NDArray out;
        if (len == 1) {
            // one new token a row (a decode step): a kv head's whole query group in one plain matmul, [group, hd] x
            // [hd, T]; the fused kernel would take each head's single query as a matrix-vector product, one BLAS call
            // per row and head, which is what a decode step's attention then costs
            NDArray grouped = q.reshape(b, kvHeads, config.groupSize(), hd).mul(attentionScale);
            NDArray keysT = k.transpose(0, 1, 3, 2);
            NDArray scores = inF32(grouped.matMul(keysT)).add(mask); // [B, kvH, group, T] + [B, 1, 1, T]
            out = inDtype(scores.softmax(3)).matMul(v).reshape(b, 1, config.qDim());
        } else {
            out = ScriptedOps.attention(q, k, v, mask).transpose(0, 2, 1, 3).reshape(b, len, config.qDim());
        }
        NDArray o = out.matMul(w.wo());
        if (w.oBias() != null) {
            o = o.add(w.oBias());
        }
        if (lora != null && lora.targets("o_proj")) {
            o = o.add(inDtype(lora.delta(layer, "o_proj", inF32(out), training)));
        }
        return o;
    }

    private NDArray mlp(int layer, NDArray h, LoraAdapter lora, boolean training) {
        LayerWeights w = weights.layers().get(layer);
        NDArray gateUp = h.matMul(w.wGateUp());
        if (lora != null && (lora.targets("gate_proj") || lora.targets("up_proj"))) {
            NDArray h32 = inF32(h);
            gateUp = gateUp.add(inDtype(NDArrays.concat(new NDList(
                    projectionDelta(lora, layer, "gate_proj", h32, config.hiddenDim(), training),
                    projectionDelta(lora, layer, "up_proj", h32, config.hiddenDim(), training)), 2)));
        }
        NDList parts = gateUp.split(2, 2);
        NDArray gate = parts.get(0);
        NDArray act = Activation.sigmoid(gate).mul(gate).mul(parts.get(1));
        NDArray down = act.matMul(w.wDown());
        if (lora != null && lora.targets("down_proj")) {
            down = down.add(inDtype(lora.delta(layer, "down_proj", inF32(act), training)));
        }
        return down;
    }

    /** The adapter's delta for a fused projection's slice, or zeros when that projection is not a target. */
    private static NDArray projectionDelta(LoraAdapter lora, int layer, String target, NDArray h, int width, boolean training) {
        if (lora.targets(target)) {
            return lora.delta(layer, target, h, training);
        }
        Shape s = h.getShape();
        return h.getManager().zeros(new Shape(s.get(0), s.get(1), width));
    }

    /**
     * RMSNorm over {@code axis} (the last one: hidden size, or head size for Qwen3's q/k norm); a half base normalises in
     * f32 and scales in its own type, as Transformers' RMSNorm does.
     */
    private NDArray rmsNorm(NDArray x, NDArray weight, int axis) {
        if (dtype != DataType.FLOAT32) {
            NDArray x32 = inF32(x);
            return inDtype(x32.div(x32.square().mean(new int[] {axis}, true).add(normEps).sqrt())).mul(weight);
        }
        // dividing by a square root, not pow(-0.5): pow would save its scalar exponent for backward (see ScopedConstant)
        return x.div(x.square().mean(new int[] {axis}, true).add(normEps).sqrt()).mul(weight);
    }

    @Override
    public void close() {
        manager.close();
    }
}
