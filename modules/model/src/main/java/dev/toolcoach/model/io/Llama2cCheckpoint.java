package dev.toolcoach.model.io;

import dev.toolcoach.model.config.ModelConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * Reads a llama2.c checkpoint (legacy version 0: a 7-int header, then f32 weights) into Hugging Face names.
 * llama2.c rotates adjacent dimension pairs; the q/k rows are read in HF's rotate-half order, the one convention
 * the transformer uses.
 */
public final class Llama2cCheckpoint {
    private Llama2cCheckpoint() {
    }

    public record Loaded(ModelConfig config, Map<String, HostTensor> tensors) {
    }

    /** The checkpoint located and checked, its tensors (HF names, q/k rows in rotate-half order) not read yet. */
    public record Located(ModelConfig config, Map<String, StoredTensor> tensors) {
    }

    /** Every tensor on the heap (references and tests); a model to run is loaded from {@link #locate}. */
    public static Loaded read(Path file) {
        Located located = locate(file);
        Map<String, HostTensor> tensors = new LinkedHashMap<>();
        try (TensorReader reader = new TensorReader()) {
            located.tensors().forEach((name, t) -> tensors.put(name, reader.read(t)));
        }
        return new Loaded(located.config(), tensors);
    }

    public static Located locate(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ModelLoadException(file, "file not found");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 28) {
                throw new ModelLoadException(file, "truncated llama2.c checkpoint: " + size + " bytes, header needs 28");
            }
            ByteBuffer head = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(head, 0);
            int dim = head.getInt(0), hidden = head.getInt(4), layers = head.getInt(8), heads = head.getInt(12);
            int kvHeads = head.getInt(16), vocabRaw = head.getInt(20), seqLen = head.getInt(24);
            boolean shared = vocabRaw > 0; // llama2.c: a negative vocab size means a separate classifier follows
            ModelConfig c;
            try {
                c = new ModelConfig("llama", dim, hidden, layers, heads, kvHeads, Math.abs(vocabRaw), seqLen, 1e-5f, 10000f, shared, false);
            } catch (IllegalArgumentException e) {
                throw new ModelLoadException(file, "bad llama2.c header: " + e.getMessage(), e);
            }
            long hs = c.headDim();
            long floats = (long) c.vocabSize() * dim + (long) layers * (2L * dim + (long) dim * dim * 2 + 2L * c.kvDim() * dim
                    + 3L * hidden * dim) + dim + (long) seqLen * hs + (shared ? 0 : (long) c.vocabSize() * dim);
            if (size - 28 < 4 * floats) {
                throw new ModelLoadException(file, "truncated llama2.c checkpoint: " + (size - 28) + " weight bytes, header implies " + 4 * floats);
            }
            return new Located(c, locateWeights(file, c, shared));
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** The file holds each kind of weight for all layers in turn, in this order, after the 28-byte header. */
    private static Map<String, StoredTensor> locateWeights(Path file, ModelConfig c, boolean shared) {
        int dim = c.dim(), kv = c.kvDim(), hidden = c.hiddenDim(), n = c.nLayers();
        Offsets at = new Offsets(file);
        Map<String, StoredTensor> t = new LinkedHashMap<>();
        t.put(HfNames.EMBED, at.take(HfNames.EMBED, null, c.vocabSize(), dim));
        for (int l = 0; l < n; l++) {
            t.put(HfNames.layer(l, "input_layernorm.weight"), at.take(HfNames.layer(l, "input_layernorm.weight"), null, dim));
        }
        for (int l = 0; l < n; l++) {
            String name = HfNames.projection(l, "q_proj") + ".weight";
            t.put(name, at.take(name, rotateHalfRow(c.headDim()), dim, dim));
        }
        for (int l = 0; l < n; l++) {
            String name = HfNames.projection(l, "k_proj") + ".weight";
            t.put(name, at.take(name, rotateHalfRow(c.headDim()), kv, dim));
        }
        for (String proj : new String[] {"v_proj", "o_proj"}) {
            for (int l = 0; l < n; l++) {
                String name = HfNames.projection(l, proj) + ".weight";
                t.put(name, at.take(name, null, proj.equals("v_proj") ? kv : dim, dim));
            }
        }
        for (int l = 0; l < n; l++) {
            t.put(HfNames.layer(l, "post_attention_layernorm.weight"), at.take(HfNames.layer(l, "post_attention_layernorm.weight"), null, dim));
        }
        for (String proj : new String[] {"gate_proj", "down_proj", "up_proj"}) { // llama2.c's w1, w2, w3
            for (int l = 0; l < n; l++) {
                String name = HfNames.projection(l, proj) + ".weight";
                t.put(name, proj.equals("down_proj") ? at.take(name, null, dim, hidden) : at.take(name, null, hidden, dim));
            }
        }
        t.put(HfNames.FINAL_NORM, at.take(HfNames.FINAL_NORM, null, dim));
        at.skip((long) c.maxSeqLen() * c.headDim()); // precomputed RoPE tables, recomputed instead
        if (!shared) {
            t.put(HfNames.LM_HEAD, at.take(HfNames.LM_HEAD, null, c.vocabSize(), dim));
        }
        return t;
    }

    /** Row (head h, pair i, component j) is stored at 2i+j within its head and read at j*half+i (rotate-half). */
    static IntUnaryOperator rotateHalfRow(int headDim) {
        int half = headDim / 2;
        return row -> {
            int head = row / headDim;
            int within = row % headDim;
            return head * headDim + 2 * (within % half) + within / half;
        };
    }

    /** Hands out consecutive f32 tensors of the file. */
    private static final class Offsets {
        private final Path file;
        private long next = 28;

        Offsets(Path file) {
            this.file = file;
        }

        StoredTensor take(String name, IntUnaryOperator sourceRow, long... shape) {
            StoredTensor t = new StoredTensor(file, name, StoredTensor.Dtype.F32, shape, next, sourceRow);
            next += t.bytes();
            return t;
        }

        void skip(long floats) {
            next += 4 * floats;
        }
    }
}
