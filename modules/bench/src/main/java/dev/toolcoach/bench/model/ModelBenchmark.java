package dev.toolcoach.bench.model;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.nn.KvSlots;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Model benchmarks, one run printing every figure:
 * <ol>
 *   <li>stories260K greedy decode tokens/s at batch 1 (200 steps from BOS);</li>
 *   <li>engine aggregate tokens/s at 1, 4, 16 and 64 concurrent sequences (continuous batching);</li>
 *   <li>one KV-cache decode step against a full re-forward at 256 tokens of context;</li>
 *   <li>peak heap and resident (native) memory for a 4-layer, 256-dim model serving 64 sequences.</li>
 * </ol>
 * Usage: {@code ModelBenchmark <dir with stories260K.bin and tok512.bin> [intraOpThreads]}.
 */
public final class ModelBenchmark {
    private ModelBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        Path dir = Path.of(args.length > 0 ? args[0] : "../shared/data/models");
        if (!Files.isRegularFile(dir.resolve("stories260K.bin"))) {
            System.err.println("stories260K.bin not found in " + dir.toAbsolutePath());
            System.exit(2);
        }
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        OpThreads.setIntraOp(threads);
        System.out.printf("intra-op threads: %d%n", OpThreads.intraOp());
        try (NDManager root = NDManager.newBaseManager();
             PolicyModel stories = ModelLoader.load(dir.resolve("stories260K.bin"), dir.resolve("tok512.bin"), root)) {
            greedyBatchOne(stories);
            for (int concurrent : new int[] {1, 4, 16, 64}) {
                engineThroughput(stories, concurrent, 200, threads);
            }
            cacheStepVersusReforward(stories.transformer(), 256);
        }
        memoryAt64Sequences(threads);
    }

    private static void greedyBatchOne(PolicyModel m) {
        int[] bos = {1};
        SamplingParams greedy = SamplingParams.greedy(199);
        for (int i = 0; i < 5; i++) {
            BatchDecoder.decodeOne(m.transformer(), m.tokenizer(), bos, greedy, null);
        }
        int runs = 10;
        long tokens = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            tokens += BatchDecoder.decodeOne(m.transformer(), m.tokenizer(), bos, greedy, null).tokens().length;
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("stories260K greedy batch 1: %.0f tokens/s (%d tokens in %.3f s)%n", tokens / s, tokens, s);
    }

    private static void engineThroughput(PolicyModel m, int concurrent, int newTokens, int threads) throws Exception {
        try (InferenceEngine engine = new InferenceEngine(m.transformer(), m.tokenizer(), concurrent, threads)) {
            run(engine, concurrent, newTokens); // warm-up
            long stepsBefore = engine.steps();
            long t0 = System.nanoTime();
            long tokens = 0;
            int rounds = 0;
            while (rounds < 2 || System.nanoTime() - t0 < 2_000_000_000L) { // at least 2 s of decoding
                tokens += run(engine, concurrent, newTokens);
                rounds++;
            }
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("engine %2d concurrent sequences: %.0f tokens/s aggregate (%d tokens in %.3f s, %d rounds, %d steps)%n",
                    concurrent, tokens / s, tokens, s, rounds, engine.steps() - stepsBefore);
        }
    }

    /** {@code concurrent} sampled sequences of exactly {@code newTokens} tokens each (no stop token). */
    private static long run(InferenceEngine engine, int concurrent, int newTokens) throws Exception {
        List<CompletableFuture<DecodedSequence>> futures = new ArrayList<>();
        for (int i = 0; i < concurrent; i++) {
            futures.add(engine.submit(new int[] {1}, new SamplingParams(0.8f, 0, 0.95f, newTokens, i, Set.of(), List.of())));
        }
        long tokens = 0;
        for (CompletableFuture<DecodedSequence> f : futures) {
            tokens += f.get().tokens().length;
        }
        return tokens;
    }

    private static void cacheStepVersusReforward(Transformer model, int context) {
        int[] tokens = new int[context + 1];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = 3 + (i * 37) % 500;
        }
        int reps = 200;
        try (KvSlots cache = new KvSlots(model.config(), model.manager(), 1, model.dtype())) {
            try (NDManager scope = model.manager().newSubManager()) {
                model.forward(StepInputs.slotted(new int[][] {Arrays.copyOf(tokens, context)}, new int[] {0}, new int[] {0}),
                        scope, cache, null, false, true);
            }
            int[][] next = {{tokens[context]}};
            double step = 0;
            for (int pass = 0; pass < 2; pass++) { // first pass warms up
                long t0 = System.nanoTime();
                for (int i = 0; i < reps; i++) { // the same step again: it overwrites the same column
                    try (NDManager scope = model.manager().newSubManager()) {
                        StepInputs in = StepInputs.slotted(next, new int[] {0}, new int[] {context});
                        model.forward(in, scope, cache, null, false, true).toFloatArray();
                    }
                }
                step = (System.nanoTime() - t0) / 1e3 / reps;
            }
            int[][] all = {tokens};
            int[][] mask = {new int[tokens.length]};
            Arrays.fill(mask[0], 1);
            double full = 0;
            for (int pass = 0; pass < 2; pass++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < reps / 4; i++) {
                    try (NDManager scope = model.manager().newSubManager()) {
                        model.forward(StepInputs.scoring(all, mask), scope, null, null, false, true).toFloatArray();
                    }
                }
                full = (System.nanoTime() - t0) / 1e3 / (reps / 4);
            }
            System.out.printf("context %d: KV-cache step %.0f us, full re-forward %.0f us (%.1fx)%n", context, step, full, full / step);
        }
    }

    private static void memoryAt64Sequences(int threads) throws Exception {
        ModelConfig c = ModelConfig.llama(256, 688, 4, 8, 4, 512, 512);
        System.gc();
        long rssBefore = procStatus("VmRSS");
        AtomicLong rssPeak = new AtomicLong(rssBefore);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> { // resident size sampled every 5 ms: heap and native (weights, KV caches)
            while (sampling.get()) {
                rssPeak.accumulateAndGet(procStatusUnchecked("VmRSS"), Math::max);
                LockSupport.parkNanos(5_000_000L);
            }
        });
        sampler.start();
        try (NDManager root = NDManager.newBaseManager();
             PolicyModel m = PolicyModel.random(c, 1L, null, root);
             InferenceEngine engine = new InferenceEngine(m.transformer(), new NoTextTokenizer(c.vocabSize()), 64, threads)) {
            resetPeaks();
            long t0 = System.nanoTime();
            long tokens = run(engine, 64, 256);
            double s = (System.nanoTime() - t0) / 1e9;
            sampling.set(false);
            sampler.join();
            long heapPeak = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).mapToLong(p -> p.getPeakUsage().getUsed()).sum();
            long kvBytes = 2L * c.nLayers() * 64 * c.kvDim() * (256 + 64) * 4; // k and v, prompt + 256 tokens, f32
            System.out.printf("4-layer 256-dim, 64 sequences x 256 tokens: %.0f tokens/s; peak heap %.1f MiB; resident %.1f MiB before,"
                            + " %.1f MiB peak (+%.1f MiB; KV caches ~%.1f MiB)%n", tokens / s, heapPeak / 1048576.0,
                    rssBefore / 1024.0, rssPeak.get() / 1024.0, (rssPeak.get() - rssBefore) / 1024.0, kvBytes / 1048576.0);
        }
    }

    private static long procStatusUnchecked(String field) {
        try {
            return procStatus(field);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** A /proc/self/status field in KiB (Linux). */
    private static long procStatus(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
