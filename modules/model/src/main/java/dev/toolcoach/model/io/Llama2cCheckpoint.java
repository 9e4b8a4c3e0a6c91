package dev.toolcoach.model.io;

import dev.toolcoach.model.config.ModelConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a llama2.c checkpoint (legacy version 0: a 7-int header, then f32 weights) into Hugging Face names.
 * llama2.c rotates adjacent dimension pairs; the q/k rows are permuted here into HF's rotate-half layout,
 * the one convention the transformer uses.
 */
public final class Llama2cCheckpoint {
    private Llama2cCheckpoint() {
    }

    public record Loaded(ModelConfig config, Map<String, HostTensor> tensors) {
    }

    public static Loaded read(Path file) {
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
            if (floats > Integer.MAX_VALUE) {
                throw new ModelLoadException(file, "llama2.c checkpoint too large for this reader (" + floats + " floats)");
            }
            FloatBuffer fb = ch.map(FileChannel.MapMode.READ_ONLY, 28, 4 * floats).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            return new Loaded(c, readWeights(c, fb, shared));
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static Map<String, HostTensor> readWeights(ModelConfig c, FloatBuffer fb, boolean shared) {
        int dim = c.dim(), kv = c.kvDim(), hidden = c.hiddenDim(), n = c.nLayers();
        Map<String, HostTensor> t = new LinkedHashMap<>();
        t.put(HfNames.EMBED, take(fb, c.vocabSize(), dim));
        HostTensor[] attnNorm = stack(fb, n, dim);
        HostTensor[] wq = stack(fb, n, dim, dim);
        HostTensor[] wk = stack(fb, n, kv, dim);
        HostTensor[] wv = stack(fb, n, kv, dim);
        HostTensor[] wo = stack(fb, n, dim, dim);
        HostTensor[] ffnNorm = stack(fb, n, dim);
        HostTensor[] w1 = stack(fb, n, hidden, dim);
        HostTensor[] w2 = stack(fb, n, dim, hidden);
        HostTensor[] w3 = stack(fb, n, hidden, dim);
        for (int l = 0; l < n; l++) {
            t.put(HfNames.layer(l, "input_layernorm.weight"), attnNorm[l]);
            t.put(HfNames.projection(l, "q_proj") + ".weight", toRotateHalf(wq[l], c.nHeads(), c.headDim()));
            t.put(HfNames.projection(l, "k_proj") + ".weight", toRotateHalf(wk[l], c.nKvHeads(), c.headDim()));
            t.put(HfNames.projection(l, "v_proj") + ".weight", wv[l]);
            t.put(HfNames.projection(l, "o_proj") + ".weight", wo[l]);
            t.put(HfNames.layer(l, "post_attention_layernorm.weight"), ffnNorm[l]);
            t.put(HfNames.projection(l, "gate_proj") + ".weight", w1[l]);
            t.put(HfNames.projection(l, "down_proj") + ".weight", w2[l]);
            t.put(HfNames.projection(l, "up_proj") + ".weight", w3[l]);
        }
        t.put(HfNames.FINAL_NORM, take(fb, dim));
        fb.position(fb.position() + c.maxSeqLen() * c.headDim()); // precomputed RoPE tables, recomputed instead
        if (!shared) {
            t.put(HfNames.LM_HEAD, take(fb, c.vocabSize(), dim));
        }
        return t;
    }

    /** Row (head h, pair i, component j) moves from 2i+j to j*half+i within its head. */
    static HostTensor toRotateHalf(HostTensor w, int heads, int headDim) {
        int cols = (int) w.shape()[1];
        int half = headDim / 2;
        float[] out = new float[w.data().length];
        for (int h = 0; h < heads; h++) {
            for (int i = 0; i < half; i++) {
                for (int j = 0; j < 2; j++) {
                    int from = h * headDim + 2 * i + j;
                    int to = h * headDim + j * half + i;
                    System.arraycopy(w.data(), from * cols, out, to * cols, cols);
                }
            }
        }
        return new HostTensor(w.shape(), out);
    }

    private static HostTensor take(FloatBuffer fb, long... shape) {
        float[] d = new float[(int) HostTensor.numel(shape)];
        fb.get(d);
        return new HostTensor(shape, d);
    }

    private static HostTensor[] stack(FloatBuffer fb, int n, long... shape) {
        HostTensor[] out = new HostTensor[n];
        for (int i = 0; i < n; i++) {
            out[i] = take(fb, shape);
        }
        return out;
    }
}
