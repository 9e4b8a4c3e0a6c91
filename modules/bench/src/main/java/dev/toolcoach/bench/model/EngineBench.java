package dev.toolcoach.bench.model;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.bench.learning.Load;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.DecodedSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The inference engine alone, on a random model of the main job's shape (qwen2, dim 128, hidden 384, 4 layers, 4
 * heads, vocabulary 1,283, context 512) or another named shape, through the engine's plain {@code submit} only (so
 * the same source runs against an older engine for side-by-side ratios). Three workloads, each for a fixed wall
 * time with B callers at once (B = 1, 8, 16, 64 by default), every caller submitting its next request as soon as
 * its last one ends, so sequences join and leave the batch all the time:
 * <ol>
 *   <li>decode: a prompt of 24-72 tokens, then 16-64 sampled tokens (no stop token): generated tokens/s;</li>
 *   <li>multi-turn: conversations of three turns of 26 tokens each, every turn's context the last one plus the reply
 *       and a 12-token observation (as a rollout's turns are): generated tokens/s;</li>
 *   <li>prefill: 128-token prompts with one new token: prompt tokens/s.</li>
 * </ol>
 * Usage: {@code EngineBench [finance|stories110m] [seconds per workload] [B,B,...] [decode,multi-turn,prefill]} (the
 * last: which workloads, default all three; a skipped one prints as -). It runs on DJL's default device: a GPU where
 * PyTorch sees one (deploy/gpu/gpu-check.sh).
 */
public final class EngineBench {
    private EngineBench() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        String shape = args.length > 0 ? args[0] : "finance";
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        int[] batches = args.length > 2 ? java.util.Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {1, 8, 16, 64};
        Set<String> workloads = Set.of((args.length > 3 ? args[3] : "decode,multi-turn,prefill").split(","));
        for (String w : workloads) {
            if (!Set.of("decode", "multi-turn", "prefill").contains(w)) {
                throw new IllegalArgumentException("workloads are decode, multi-turn and prefill, not " + w);
            }
        }
        ModelConfig config = switch (shape) {
            case "finance" -> new ModelConfig("qwen2", 128, 384, 4, 4, 4, 1283, 512, 1e-6f, 10_000f, false, true);
            case "stories110m" -> ModelConfig.llama(768, 2048, 12, 12, 12, 32000, 1024);
            default -> throw new IllegalArgumentException("shape is finance or stories110m, not " + shape);
        };
        OpThreads.setIntraOp(1);
        try (NDManager root = NDManager.newBaseManager();
             PolicyModel model = PolicyModel.random(config, 7L, new NoTextTokenizer(config.vocabSize()), root)) {
            System.out.printf("shape %s on %s, %.0f s per workload, load %s%n", shape, root.getDevice(), seconds, Load.now());
            for (int b : batches) {
                try (InferenceEngine engine = new InferenceEngine(model.transformer(), model.tokenizer(), b)) {
                    run(engine, b, 2, "warm-up", 1); // the JIT and the allocator, once per engine
                    String decode = workloads.contains("decode") ? rate(run(engine, b, seconds, "decode", 1)) : "-";
                    String turns = workloads.contains("multi-turn") ? rate(run(engine, b, seconds, "multi-turn", 3)) : "-";
                    String prefill = workloads.contains("prefill") ? rate(run(engine, b, seconds, "prefill", 0)) : "-";
                    System.out.printf("B=%-3d decode %8s tokens/s   multi-turn %8s tokens/s   prefill %8s prompt tokens/s   load %s%n",
                            b, decode, turns, prefill, Load.now());
                }
            }
        }
    }

    private static String rate(double perSecond) {
        return String.format(java.util.Locale.ROOT, "%.0f", perSecond);
    }

    /**
     * {@code callers} loops for {@code seconds}: {@code turns} = 1 single replies, 3 three-turn conversations, 0 prefill
     * only. Returns generated tokens/s (prompt tokens/s for prefill).
     */
    private static double run(InferenceEngine engine, int callers, double seconds, String name, int turns) throws Exception {
        AtomicLong tokens = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < callers; c++) {
            SplittableRandom random = new SplittableRandom(1000L * callers + c);
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        tokens.addAndGet(turns == 0 ? prefillOnce(engine, random)
                                : turns == 1 ? replyOnce(engine, random) : conversation(engine, random, turns));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, name + "-" + c);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return tokens.get() / ((System.nanoTime() - t0) / 1e9);
    }

    private static int[] randomTokens(SplittableRandom random, int n, int vocab) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = 3 + random.nextInt(vocab - 3);
        }
        return t;
    }

    private static SamplingParams sampled(int tokens, SplittableRandom random) {
        return new SamplingParams(1f, 0, 1f, tokens, random.nextLong(), Set.of(), List.of());
    }

    private static long replyOnce(InferenceEngine engine, SplittableRandom random) throws Exception {
        int[] prompt = randomTokens(random, 24 + random.nextInt(49), 1283);
        return engine.submit(prompt, sampled(16 + random.nextInt(49), random)).get().tokens().length;
    }

    private static long prefillOnce(InferenceEngine engine, SplittableRandom random) throws Exception {
        int[] prompt = randomTokens(random, 128, 1283);
        engine.submit(prompt, sampled(1, random)).get();
        return prompt.length;
    }

    private static long conversation(InferenceEngine engine, SplittableRandom random, int turns) throws Exception {
        int[] context = randomTokens(random, 48, 1283);
        long generated = 0;
        for (int turn = 0; turn < turns; turn++) {
            DecodedSequence reply = engine.submit(context, sampled(26, random)).get();
            generated += reply.tokens().length;
            int[] observation = randomTokens(random, 12, 1283);
            int[] next = java.util.Arrays.copyOf(context, context.length + reply.tokens().length + observation.length);
            System.arraycopy(reply.tokens(), 0, next, context.length, reply.tokens().length);
            System.arraycopy(observation, 0, next, context.length + reply.tokens().length, observation.length);
            context = next;
        }
        return generated;
    }
}
