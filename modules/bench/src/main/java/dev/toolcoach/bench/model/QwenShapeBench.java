package dev.toolcoach.bench.model;

import dev.toolcoach.bench.learn.SyntheticGroups;
import ai.djl.ndarray.NDManager;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.Precision;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.io.CheckpointLayout;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * Real-checkpoint shapes on this machine: a random model with the exact shapes of Qwen2.5-0.5B-Instruct (or -1.5B, -7B;
 * or a tiny one of the same layout, for rehearsals; or the main job's task model, qwen2 dim 128 with 4 layers and 1,283
 * tokens) in a
 * real safetensors folder written in bf16, then, each phase in a JVM of its own so each peak is its own:
 * <ul>
 *   <li>{@code write DIR [tiny|task|0.5b|1.5b|7b]}: the folder (config.json as the real model's, weights N(0, 0.02²), norms 1;
 *       but for the task shape a byte-level tokenizer.json with ChatML's special tokens, so that {@code train --model}
 *       and {@code serve} take the folder as a user's checkpoint: the ids past the tokenizer's 259 decode to nothing);</li>
 *   <li>{@code load DIR}: locate and stream the weights to the device: time, peak RSS, peak heap, against the f32 bytes;</li>
 *   <li>{@code generate DIR [newTokens] [batches] [precision]}: greedy tokens/s at each batch size (comma-separated,
 *       default 1,8) through the inference engine, the base in {@code precision} (f32, f16 or bf16; default f32);</li>
 *   <li>{@code llama2c DIR}: a random llama2.c checkpoint of stories110M's shape (dim 768, 12 layers, 12 heads,
 *       hidden 2048, vocab 32000, context 1024; 110 M parameters) as {@code DIR/model.bin}, with a 32000-token
 *       {@code DIR/tokenizer.bin}, for {@code coach-node generate} beside llama2.c's {@code run};</li>
 *   <li>{@code grpo DIR [rows] [tokens] [microRows] [precision] [steps]}: LoRA GRPO steps (r 8, q/v) on rows × tokens
 *       for each micro-batch size (comma-separated) over a base in {@code precision}: a warm-up step, then {@code steps}
 *       timed ones (default 1: the warm-up alone, as before) and their median; peak RSS (heap + native), peak heap.</li>
 * </ul>
 * Run: {@code java -cp ... dev.toolcoach.bench.model.QwenShapeBench write /tmp/qwen05 0.5b} and so on (see the bench README).
 */
public final class QwenShapeBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private QwenShapeBench() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        if (args.length < 2) {
            System.err.println("usage: QwenShapeBench write DIR [tiny|task|0.5b|1.5b|7b] | llama2c DIR | load DIR | generate DIR [newTokens] [batches] "
                    + "[precision] | grpo DIR [rows] [tokens] [microRows,...] [precision] [steps]");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "write" -> write(dir, args.length > 2 ? args[2] : "0.5b");
            case "load" -> load(dir);
            case "generate" -> generate(dir, args.length > 2 ? Integer.parseInt(args[2]) : 32, args.length > 3 ? ints(args[3]) : new int[] {1, 8},
                    args.length > 4 ? precision(args[4]) : Precision.F32);
            case "llama2c" -> writeLlama2c(dir);
            case "grpo" -> grpo(dir, args.length > 2 ? Integer.parseInt(args[2]) : 8, args.length > 3 ? Integer.parseInt(args[3]) : 512,
                    args.length > 4 ? ints(args[4]) : new int[] {2}, args.length > 5 ? precision(args[5]) : Precision.F32,
                    args.length > 6 ? Integer.parseInt(args[6]) : 1);
            default -> {
                System.err.println("unknown phase " + args[0]);
                System.exit(2);
            }
        }
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }

    private static Precision precision(String name) {
        return Precision.parse(name).orElseThrow(() -> new IllegalArgumentException("give f32, f16 or bf16, not auto"));
    }

    /** config.json as Qwen2.5-{0.5B,1.5B,7B}-Instruct's (the fields the forward reads), weights in bf16. */
    private static void write(Path dir, String size) throws IOException {
        ObjectNode c = JSON.createObjectNode();
        c.putArray("architectures").add("Qwen2ForCausalLM");
        c.put("model_type", "qwen2");
        c.put("attention_dropout", 0.0);
        c.put("hidden_act", "silu");
        switch (size) {
            case "0.5b" -> {
                c.put("hidden_size", 896);
                c.put("intermediate_size", 4864);
                c.put("num_attention_heads", 14);
                c.put("num_hidden_layers", 24);
                c.put("max_window_layers", 21);
            }
            case "1.5b" -> {
                c.put("hidden_size", 1536);
                c.put("intermediate_size", 8960);
                c.put("num_attention_heads", 12);
                c.put("num_hidden_layers", 28);
                c.put("max_window_layers", 21);
            }
            case "tiny" -> { // Qwen2.5's vocabulary and layout at a size for rehearsing a GPU run on a CPU
                c.put("hidden_size", 64);
                c.put("intermediate_size", 128);
                c.put("num_attention_heads", 4);
                c.put("num_hidden_layers", 2);
                c.put("max_window_layers", 2);
            }
            case "7b" -> {
                c.put("hidden_size", 3584);
                c.put("intermediate_size", 18944);
                c.put("num_attention_heads", 28);
                c.put("num_hidden_layers", 28);
                c.put("max_window_layers", 28);
            }
            case "task" -> { // the main job's model (finance: EngineBench's shape), for the engine beside transformers
                c.put("hidden_size", 128);
                c.put("intermediate_size", 384);
                c.put("num_attention_heads", 4);
                c.put("num_hidden_layers", 4);
                c.put("max_window_layers", 4);
            }
            default -> throw new IllegalArgumentException("size must be tiny, task, 0.5b, 1.5b or 7b, was " + size);
        }
        boolean task = size.equals("task");
        c.put("bos_token_id", task ? 1 : 151643); // inside the vocabulary: transformers' generate masks the end token
        c.put("eos_token_id", task ? 2 : 151645);
        c.put("num_key_value_heads", size.equals("7b") ? 4 : task ? 4 : 2);
        c.put("initializer_range", 0.02);
        c.put("max_position_embeddings", task ? 512 : 32768);
        c.put("rms_norm_eps", 1e-6);
        c.put("rope_theta", task ? 10000.0 : 1000000.0);
        c.put("sliding_window", task ? 512 : 32768);
        c.put("tie_word_embeddings", !size.equals("7b") && !task);
        c.put("torch_dtype", "bfloat16");
        c.put("use_cache", true);
        c.put("use_sliding_window", false);
        c.put("vocab_size", size.equals("7b") ? 152064 : task ? 1283 : 151936);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("config.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(c));
        ModelConfig config = ModelConfig.readHfConfig(dir.resolve("config.json"));
        Map<String, long[]> shapes = CheckpointLayout.shapes(config);
        long params = shapes.values().stream().mapToLong(HostTensor::numel).sum();
        long t0 = System.nanoTime();
        SafetensorsWriter.write(dir.resolve("model.safetensors"), shapes, name -> values(name, shapes.get(name)), Map.of("format", "pt"),
                StoredTensor.Dtype.BF16);
        if (!task) ByteLevelTokenizerJson.write(dir.resolve("tokenizer.json"), List.of("<|im_start|>", "<|im_end|>", "<|endoftext|>"), List.of());
        System.out.printf("wrote %s: %,d parameters, %,d bytes of bf16 in %.1f s%n", dir, params,
                Files.size(dir.resolve("model.safetensors")), (System.nanoTime() - t0) / 1e9);
    }

    /** llama2.c's legacy layout: a 7-int header, then every kind of weight for all layers in turn, f32, shared classifier. */
    private static void writeLlama2c(Path dir) throws IOException {
        int dim = 768, hidden = 2048, layers = 12, heads = 12, vocab = 32000, seq = 1024;
        Files.createDirectories(dir);
        long[] counts = {(long) vocab * dim, (long) layers * dim, (long) layers * dim * dim, (long) layers * dim * dim,
                (long) layers * dim * dim, (long) layers * dim * dim, (long) layers * dim, (long) layers * hidden * dim,
                (long) layers * dim * hidden, (long) layers * hidden * dim, dim, (long) seq * (dim / heads)};
        boolean[] norms = {false, true, false, false, false, false, true, false, false, false, true, false};
        SplittableRandom random = new SplittableRandom(11);
        long params = 0;
        try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(dir.resolve("model.bin")), 1 << 20)) {
            java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(28).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            head.putInt(dim).putInt(hidden).putInt(layers).putInt(heads).putInt(heads).putInt(vocab).putInt(seq);
            out.write(head.array());
            java.nio.ByteBuffer chunk = java.nio.ByteBuffer.allocate(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < counts.length; k++) {
                params += k == counts.length - 1 ? 0 : counts[k]; // the last block is the RoPE table, not a parameter
                for (long i = 0; i < counts[k]; i++) {
                    chunk.putFloat(norms[k] ? 1f : (float) (random.nextGaussian() * 0.02));
                    if (!chunk.hasRemaining()) {
                        out.write(chunk.array(), 0, chunk.position());
                        chunk.clear();
                    }
                }
                out.write(chunk.array(), 0, chunk.position());
                chunk.clear();
            }
        }
        // tokenizer.bin: BOS/EOS, the 256 byte tokens as llama2.c's, then filler pieces
        try (var out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(dir.resolve("tokenizer.bin"))))) {
            out.writeInt(Integer.reverseBytes(16));
            for (int i = 0; i < vocab; i++) {
                String piece = i == 0 ? "<unk>" : i == 1 ? "\n<s>\n" : i == 2 ? "\n</s>\n"
                        : i < 259 ? String.format("<0x%02X>", i - 3) : i < 354 ? String.valueOf((char) (32 + i - 259)) : "t" + i;
                byte[] b = piece.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.writeInt(Integer.reverseBytes(Float.floatToIntBits(-i)));
                out.writeInt(Integer.reverseBytes(b.length));
                out.write(b);
            }
        }
        System.out.printf("wrote %s: %,d parameters, model.bin %,d bytes%n", dir, params, Files.size(dir.resolve("model.bin")));
    }

    /** N(0, 0.02²) from a seed per tensor name, norms 1, biases 0 (as Transformers initialises Qwen2). */
    private static float[] values(String name, long[] shape) {
        float[] v = new float[Math.toIntExact(HostTensor.numel(shape))];
        if (name.endsWith("norm.weight")) {
            Arrays.fill(v, 1f);
        } else if (!name.endsWith(".bias")) {
            SplittableRandom random = new SplittableRandom(name.hashCode());
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (random.nextGaussian() * 0.02);
            }
        }
        return v;
    }

    private static Transformer loadTimed(Path dir, NDManager root) {
        return loadTimed(dir, root, Precision.F32);
    }

    private static Transformer loadTimed(Path dir, NDManager root, Precision precision) {
        long t0 = System.nanoTime();
        HfModelFolder.Located located = HfModelFolder.locate(dir);
        Transformer model = Transformer.load(located.config(), located.tensors(), root, precision.dataType());
        long params = located.tensors().values().stream().mapToLong(StoredTensor::numel).sum();
        System.out.printf("load: %,d parameters (%s on the device: %.0f MiB) in %.1f s; RSS now %.0f MiB, peak %.0f MiB (%.2f x f32 bytes); "
                        + "peak heap %.0f MiB%n", params, precision, params * (precision == Precision.F32 ? 4 : 2) / 1048576.0,
                (System.nanoTime() - t0) / 1e9,
                Memory.rssKib() / 1024.0, Memory.peakRssKib() / 1024.0, Memory.peakRssKib() * 1024.0 / (params * 4.0),
                Memory.peakHeap() / 1048576.0);
        return model;
    }

    private static void load(Path dir) {
        try (NDManager root = NDManager.newBaseManager(); Transformer ignored = loadTimed(dir, root)) {
            System.out.println(Memory.load());
        }
    }

    private static void generate(Path dir, int newTokens, int[] batches, Precision precision) throws Exception {
        try (NDManager root = NDManager.newBaseManager(); Transformer model = loadTimed(dir, root, precision)) {
            for (int batch : batches) {
                try (InferenceEngine engine = new InferenceEngine(model, new NoTextTokenizer(model.config().vocabSize()), batch,
                        OpThreads.intraOp())) {
                    greedy(engine, model.config().vocabSize(), batch, 4); // warm-up
                    long t0 = System.nanoTime();
                    long tokens = greedy(engine, model.config().vocabSize(), batch, newTokens);
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf("greedy batch %d (%s): %.2f tokens/s aggregate (%d tokens after a 16-token prompt, %.1f s, prefill "
                                    + "included)%n", batch, precision, tokens / s, tokens, s);
                }
            }
            System.out.printf("generate: peak RSS %.0f MiB, peak heap %.0f MiB; %s%n", Memory.peakRssKib() / 1024.0,
                    Memory.peakHeap() / 1048576.0, Memory.load());
        }
    }

    private static long greedy(InferenceEngine engine, int vocab, int batch, int newTokens) {
        List<CompletableFuture<DecodedSequence>> futures = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            int[] prompt = new int[16];
            for (int t = 0; t < prompt.length; t++) {
                prompt[t] = (1000 + 37 * t + 101 * i) % vocab;
            }
            futures.add(engine.submit(prompt, new SamplingParams(0f, 0, 1f, newTokens, i, Set.of(), List.of())));
        }
        return futures.stream().mapToLong(f -> f.join().tokens().length).sum();
    }

    private static void grpo(Path dir, int rows, int tokens, int[] microRows, Precision precision, int steps) {
        try (NDManager root = NDManager.newBaseManager(); Transformer model = loadTimed(dir, root, precision)) {
            List<ScoredGroup> batch = List.of(SyntheticGroups.of(rows, tokens, model.config().vocabSize()));
            for (int micro : microRows) {
                LoraAdapter adapter = LoraAdapter.create(LoraConfig.defaults(), model.config(), model.manager(), 2);
                try (LearnerCore learner = new LearnerCore(model, new LoraWeights(adapter), LearnerConfig.defaults(1e-5).withMicroBatchRows(micro))) {
                    double[] seconds = new double[Math.max(1, steps)];
                    GrpoMetrics m = null;
                    for (int i = 0; i < seconds.length + (steps > 1 ? 1 : 0); i++) { // with several steps, the first warms up
                        long t0 = System.nanoTime();
                        m = learner.trainGrpo(batch);
                        if (steps <= 1 || i > 0) {
                            seconds[steps <= 1 ? 0 : i - 1] = (System.nanoTime() - t0) / 1e9;
                        }
                    }
                    double[] sorted = seconds.clone();
                    Arrays.sort(sorted);
                    double s = sorted[sorted.length / 2];
                    System.out.printf("GRPO step, LoRA %s, %d x %d tokens, micro-batches of %d rows, base %s: %.2f s (%.0f tokens/s; median of %d "
                                    + "%s), loss %.4f, kl %.5f; peak RSS (heap + native) %.0f MiB, peak heap %.0f MiB; %s%n",
                            LoraConfig.defaults().targets(), rows, tokens, micro, precision, s, rows * (tokens - 1) / s, seconds.length,
                            steps > 1 ? "after a warm-up step" : "(the first step)", m.loss(), m.kl(), Memory.peakRssKib() / 1024.0,
                            Memory.peakHeap() / 1048576.0, Memory.load());
                } finally {
                    adapter.close();
                }
            }
        }
    }

    /** Process memory from /proc/self/status (Linux), heap peaks from the JVM's pools, the machine's load. */
    private static final class Memory {
        static long rssKib() {
            return status("VmRSS");
        }

        static long peakRssKib() {
            return status("VmHWM");
        }

        static long peakHeap() {
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            return peak;
        }

        static String load() {
            try {
                return "load average " + Files.readString(Path.of("/proc/loadavg")).trim();
            } catch (IOException e) {
                return "load average unknown";
            }
        }

        private static long status(String field) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith(field + ":")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            throw new IllegalStateException("no " + field + " in /proc/self/status");
        }
    }
}
