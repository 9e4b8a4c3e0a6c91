package dev.toolcoach.coachnode;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.jni.LibUtils;
import ai.djl.training.GradientCollector;
import ai.djl.util.cuda.CudaUtils;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.Precision;
import dev.toolcoach.model.TorchRuntime;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.ScriptedOps;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What this process computes on, checked: the PyTorch and JNI DJL found ({@link TorchRuntime}), the devices it sees, a
 * matmul on the chosen device against a float64 product on the host (and, on a GPU, against the CPU), and, for a 16-bit
 * {@link Precision}, a tiny random model's logits and its adapter's gradient over a base in that type against the f32
 * base's. Prints one line per finding and ends with one verdict line: {@code verdict: ok: ...} or
 * {@code verdict: FAILED: <reason>}.
 */
public final class TorchDoctor {
    /** f16 keeps 11 significant bits, bf16 8: two layers of either move logits by well under these shares of their scale. */
    private static final double F16_LOGITS = 0.02;
    private static final double BF16_LOGITS = 0.04;
    /** An adapter's gradient through a 16-bit base points where the f32 one does (cosine), or the base dropped it. */
    private static final double GRADIENT_COSINE = 0.98;
    private static final double MATMUL_TOLERANCE = 1e-4;

    private final PrintWriter out;

    public TorchDoctor(PrintWriter out) {
        this.out = out;
    }

    /** Runs every check on {@code deviceName} in {@code precisionName}; returns whether all passed (the verdict). */
    public boolean run(String deviceName, String precisionName) {
        TorchRuntime runtime = TorchRuntime.current();
        List<String> problems = new ArrayList<>();
        line("installed torch", runtime.installedLibraries().map(p -> "PYTORCH_LIBRARY_PATH=" + p)
                .orElse("none (DJL's own libtorch: the natives in the jar, or its download)"));
        line("settings", "PYTORCH_VERSION=" + runtime.setting("PYTORCH_VERSION").orElse("-") + " PYTORCH_FLAVOR="
                + runtime.setting("PYTORCH_FLAVOR").orElse("-") + " ENGINE_CACHE_DIR=" + runtime.setting("ENGINE_CACHE_DIR").orElse("-")
                + (System.getProperty("jna.library.path") == null ? "" : " jna.library.path=" + System.getProperty("jna.library.path")));
        Device device;
        try {
            device = ComputeDevice.available(deviceName);
        } catch (IllegalArgumentException e) {
            engineLines(runtime);
            return verdict(List.of(e.getMessage()), null, null);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            return verdict(List.of("the PyTorch engine did not load: " + e), null, null);
        }
        engineLines(runtime);
        Precision precision;
        try {
            precision = ComputeDevice.precision(device, precisionName);
        } catch (IllegalArgumentException e) {
            return verdict(List.of(e.getMessage()), device, null);
        }
        line("device", ComputeDevice.name(device) + ", precision " + precision
                + (Precision.parse(precisionName).isEmpty() ? " (auto: the default on this device)" : ""));
        matmul(device, problems);
        fusedAttention(device, problems);
        if (precision != Precision.F32) {
            halfBase(device, precision, problems);
        }
        return verdict(problems, device, precision);
    }

    private void engineLines(TorchRuntime runtime) {
        Engine engine = Engine.getEngine("PyTorch");
        line("engine", "PyTorch " + engine.getVersion() + " through DJL " + Engine.getDjlVersion() + ", libraries "
                + LibUtils.getLibtorchPath());
        line("jni", runtime.installedJni().map(p -> p + runtime.marker().map(m -> " (ToolCoach's build of deploy/gpu/djl-jni, "
                        + "features " + m.getProperty("features", "") + ", source " + m.getProperty("source.sha256", "?") + ")")
                        .orElse(" (no ToolCoach marker: not built by deploy/gpu/install-torch-jni.sh)"))
                .orElse("DJL's own (" + Engine.getDjlVersion() + "; no bf16, casts drop the gradient)"));
        int cuda = CudaUtils.getGpuCount();
        int gpus = engine.getGpuCount();
        StringBuilder s = new StringBuilder("cpu; CUDA runtime sees " + cuda + " GPU(s), PyTorch " + gpus);
        for (int i = 0; i < gpus; i++) {
            MemoryUsage mem = CudaUtils.getGpuMemory(Device.gpu(i));
            s.append(String.format(Locale.ROOT, "; cuda:%d compute capability %s, %.1f GiB", i, CudaUtils.getComputeCapability(i),
                    mem.getMax() / (double) (1L << 30)));
        }
        line("devices", s.toString());
    }

    /** [64, 96] x [96, 48] on the device, against a float64 product on the host and (on a GPU) the CPU's own result. */
    private void matmul(Device device, List<String> problems) {
        Random random = new Random(7);
        int m = 64, k = 96, n = 48;
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) random.nextGaussian();
        }
        double[] host = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int t = 0; t < k; t++) {
                    sum += (double) a[i * k + t] * b[t * n + j];
                }
                host[i * n + j] = sum;
            }
        }
        float[] onDevice = product(device, a, b, m, k, n);
        double hostError = relativeError(onDevice, host);
        String s = String.format(Locale.ROOT, "[%d,%d]x[%d,%d] on %s: max error %.1e of the host's float64 product", m, k, k, n,
                ComputeDevice.name(device), hostError);
        if (device.isGpu()) {
            float[] cpu = product(Device.cpu(), a, b, m, k, n);
            double[] cpu64 = new double[cpu.length];
            for (int i = 0; i < cpu.length; i++) {
                cpu64[i] = cpu[i];
            }
            double cpuError = relativeError(onDevice, cpu64);
            s += String.format(Locale.ROOT, ", %.1e of the CPU's", cpuError);
            if (!(cpuError <= MATMUL_TOLERANCE)) {
                problems.add(String.format(Locale.ROOT, "the matmul on %s differs from the CPU's by %.1e", ComputeDevice.name(device), cpuError));
            }
        }
        if (!(hostError <= MATMUL_TOLERANCE)) {
            problems.add(String.format(Locale.ROOT, "the matmul on %s is off by %.1e", ComputeDevice.name(device), hostError));
        }
        line("matmul", s + (problems.isEmpty() ? " (ok)" : " (FAILED)"));
    }

    /**
     * The fused attention prefill and scoring run (PyTorch's scaled dot-product attention, reached through a TorchScript
     * module DJL loads: {@link ScriptedOps}) on the device, grouped-query and causal, against a float64 softmax product on
     * the host: a torch whose TorchScript cannot load or run that module fails here, not in the first training step.
     */
    private void fusedAttention(Device device, List<String> problems) {
        int heads = 4, kvHeads = 2, len = 6, hd = 8;
        Random random = new Random(13);
        float[] q = new float[heads * len * hd];
        float[] k = new float[kvHeads * len * hd];
        float[] v = new float[kvHeads * len * hd];
        for (float[] a : List.of(q, k, v)) {
            for (int i = 0; i < a.length; i++) {
                a[i] = (float) random.nextGaussian();
            }
        }
        float[] mask = new float[len * len];
        for (int i = 0; i < len; i++) {
            for (int j = i + 1; j < len; j++) {
                mask[i * len + j] = Float.NEGATIVE_INFINITY;
            }
        }
        double[] host = new double[heads * len * hd];
        for (int h = 0; h < heads; h++) {
            int g = h / (heads / kvHeads);
            for (int i = 0; i < len; i++) {
                double[] w = new double[i + 1];
                double max = Double.NEGATIVE_INFINITY;
                double sum = 0;
                for (int j = 0; j <= i; j++) {
                    for (int d = 0; d < hd; d++) {
                        w[j] += (double) q[(h * len + i) * hd + d] * k[(g * len + j) * hd + d];
                    }
                    w[j] /= Math.sqrt(hd);
                    max = Math.max(max, w[j]);
                }
                for (int j = 0; j <= i; j++) {
                    w[j] = Math.exp(w[j] - max);
                    sum += w[j];
                }
                for (int j = 0; j <= i; j++) {
                    for (int d = 0; d < hd; d++) {
                        host[(h * len + i) * hd + d] += w[j] / sum * v[(g * len + j) * hd + d];
                    }
                }
            }
        }
        String name = ComputeDevice.name(device);
        try (NDManager manager = NDManager.newBaseManager(device)) {
            float[] fused = ScriptedOps.attention(manager.create(q, new Shape(1, heads, len, hd)), manager.create(k, new Shape(1, kvHeads, len, hd)),
                    manager.create(v, new Shape(1, kvHeads, len, hd)), manager.create(mask, new Shape(1, 1, len, len))).toFloatArray();
            double error = relativeError(fused, host);
            boolean ok = error <= MATMUL_TOLERANCE;
            line("fused attention", String.format(Locale.ROOT, "scaled dot-product (TorchScript), %d heads over %d kv heads, causal, on %s: max "
                    + "error %.1e of the host's float64 (%s)", heads, kvHeads, name, error, ok ? "ok" : "FAILED"));
            if (!ok) {
                problems.add(String.format(Locale.ROOT, "the fused attention on %s is off by %.1e", name, error));
            }
        } catch (RuntimeException e) {
            line("fused attention", "FAILED: " + e);
            problems.add("the fused attention (a TorchScript module) failed on " + name + ": " + e.getMessage());
        }
    }

    private static float[] product(Device device, float[] a, float[] b, int m, int k, int n) {
        try (NDManager manager = NDManager.newBaseManager(device)) {
            return manager.create(a, new Shape(m, k)).matMul(manager.create(b, new Shape(k, n))).toFloatArray();
        }
    }

    /**
     * A tiny random Llama (2 layers) written to a temporary folder, loaded twice on the device, in f32 and in the 16-bit
     * type, each scored with the same trainable adapter: the half base's logits must stay near the f32 base's, and the
     * adapter's gradient through the half base must be there and point where the f32 one does.
     */
    private void halfBase(Device device, Precision precision, List<String> problems) {
        ModelConfig config = ModelConfig.llama(64, 128, 2, 4, 2, 97, 64);
        Path dir = null;
        try {
            dir = Files.createTempDirectory("toolcoach-doctor");
            HfModelFolder.write(dir, config, ModelWeights.randomHf(config, 3));
            HfModelFolder.Located located = HfModelFolder.locate(dir);
            int[][] tokens = {{1, 5, 9, 2, 7, 3, 11, 4, 60, 33, 17, 90}, {0, 0, 1, 8, 6, 12, 2, 9, 41, 77, 23, 5}};
            int[][] mask = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
            try (NDManager root = NDManager.newBaseManager(device);
                 Transformer full = Transformer.load(config, located.tensors(), root);
                 Transformer half = Transformer.load(config, located.tensors(), root, precision.dataType());
                 LoraAdapter adapter = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), config, root, 5)) {
                adapter.parameters().forEach(p -> p.addi(p.getManager().randomNormal(0, 0.05f, p.getShape(), p.getDataType())));
                adapter.setTrainable(true);
                Scored f32 = scored(full, adapter, tokens, mask);
                Scored f16 = scored(half, adapter, tokens, mask);
                double scale = 0;
                for (float v : f32.logits) {
                    scale = Math.max(scale, Math.abs(v));
                }
                double logitsOff = maxAbsDiff(f32.logits, f16.logits) / scale;
                double cosine = cosine(f32.gradient, f16.gradient);
                double limit = precision == Precision.BF16 ? BF16_LOGITS : F16_LOGITS;
                boolean ok = logitsOff <= limit && cosine >= GRADIENT_COSINE;
                line(precision.label() + " base", String.format(Locale.ROOT, "a 2-layer random model's logits within %.3f of the f32 base's "
                        + "scale (limit %.2f); the adapter's gradient through it: cosine %.4f with the f32 one (at least %.2f) (%s)",
                        logitsOff, limit, cosine, GRADIENT_COSINE, ok ? "ok" : "FAILED"));
                if (!(logitsOff <= limit)) {
                    problems.add(String.format(Locale.ROOT, "a %s base's logits are off by %.3f of their scale", precision, logitsOff));
                }
                if (!(cosine >= GRADIENT_COSINE)) {
                    problems.add(String.format(Locale.ROOT, "the adapter's gradient through a %s base is not the f32 one's (cosine %.3f)",
                            precision, cosine));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the doctor's tiny model", e);
        } catch (RuntimeException e) {
            problems.add("a " + precision + " base failed: " + e.getMessage());
            line(precision.label() + " base", "FAILED: " + e);
        } finally {
            delete(dir);
        }
    }

    private record Scored(float[] logits, double[] gradient) {
    }

    /**
     * Logits at the positions the mask keeps, and the adapter's gradient of a fixed weighted sum of their
     * log-probabilities; a padding position is left out, as the learner leaves it out: it attends to nothing, so its
     * output is whatever the attention kernel fills such a row with, which differs between types.
     */
    private static Scored scored(Transformer model, LoraAdapter adapter, int[][] tokens, int[][] mask) {
        try (NDManager scope = model.manager().newSubManager();
             GradientCollector collector = Engine.getInstance().newGradientCollector()) {
            NDArray logits = model.forward(StepInputs.scoring(tokens, mask), scope, null, adapter, false, false);
            Random random = new Random(11); // the same weights for every model scored
            int length = tokens[0].length;
            int vocab = Math.toIntExact(logits.getShape().get(2));
            float[] w = new float[Math.toIntExact(logits.size())];
            for (int i = 0; i < w.length; i++) {
                float weight = (float) random.nextGaussian(); // drawn for every position, kept or not
                w[i] = isKept(mask, i / vocab, length) ? weight : 0;
            }
            collector.backward(logits.logSoftmax(-1).mul(scope.create(w, logits.getShape())).sum());
            List<Double> g = new ArrayList<>();
            for (NDArray p : adapter.parameters()) {
                try (NDArray grad = p.getGradient()) {
                    for (float v : grad.toFloatArray()) {
                        g.add((double) v);
                    }
                    grad.set(new NDIndex("..."), 0f); // PyTorch accumulates: the next scoring starts from zero
                }
            }
            float[] all = logits.toFloatArray();
            float[] kept = new float[all.length];
            for (int i = 0; i < all.length; i++) {
                kept[i] = isKept(mask, i / vocab, length) ? all[i] : 0;
            }
            return new Scored(kept, g.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    private static boolean isKept(int[][] mask, int position, int length) {
        return mask[position / length][position % length] != 0;
    }

    private boolean verdict(List<String> problems, Device device, Precision precision) {
        if (problems.isEmpty()) {
            TorchRuntime runtime = TorchRuntime.current();
            out.println("verdict: ok: ToolCoach computes on " + ComputeDevice.name(device) + " in " + precision + " with PyTorch "
                    + Engine.getEngine("PyTorch").getVersion() + (runtime.marker().isPresent() ? " (installed torch, ToolCoach's JNI)"
                    : runtime.installedLibraries().isPresent() ? " (installed torch)" : " (DJL's own natives)"));
            out.flush();
            return true;
        }
        out.println("verdict: FAILED: " + String.join("; ", problems));
        out.flush();
        return false;
    }

    private void line(String what, String value) {
        out.printf(Locale.ROOT, "%-16s %s%n", what, value);
    }

    private static double relativeError(float[] actual, double[] expected) {
        double scale = 0;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
        }
        return worst / scale;
    }

    private static double maxAbsDiff(float[] a, float[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]));
        }
        return worst;
    }

    /** Cosine similarity of two vectors (0 when either is zero). */
    private static double cosine(double[] a, double[] b) {
        double ab = 0, aa = 0, bb = 0;
        for (int i = 0; i < a.length; i++) {
            ab += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return aa == 0 || bb == 0 ? 0 : ab / Math.sqrt(aa * bb);
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
