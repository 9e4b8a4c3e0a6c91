package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodingPolicy;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.model.generate.DecodeRequest;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InferenceEngineTest {
    private static NDManager root;
    private static PolicyModel policy;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws Exception {
        root = TestModels.newRoot();
        TinyHfFolder.write(dir, TestModels.tinyLlama(), 99L);
        policy = ModelLoader.load(dir, null, root);
    }

    @AfterAll
    static void tearDown() {
        policy.close();
        root.close();
    }

    private static int[] prompt(int i) {
        int[] p = new int[2 + 3 * i];
        for (int j = 0; j < p.length; j++) {
            p[j] = 3 + (7 * i + 5 * j) % 60;
        }
        return p;
    }

    private static SamplingParams params(int i) {
        float temperature = i % 2 == 0 ? 0f : 0.9f;
        return new SamplingParams(temperature, i % 3 == 0 ? 0 : 20, 0.95f, 8 + 5 * i, 100L + i, Set.of(), List.of());
    }

    /**
     * A batch that never empties (one long sequence while short ones join and leave) keeps its KV cache for as long
     * as it decodes: no step, admission or retirement may leave arrays behind in it (once, every decode step left
     * a transposed view of each layer's keys there: gigabytes a minute under continuous load).
     */
    @Test
    void aBatchThatNeverEmptiesLeavesNoArraysBehind() {
        LoraConfig lc = new LoraConfig(2, 4f, 0f, Set.of("q_proj", "k_proj", "v_proj", "o_proj"));
        try (NDManager parent = root.newSubManager();
             LoraAdapter fresh = LoraAdapter.create(lc, policy.config(), root, 3L);
             LoraAdapter lora = LoraAdapter.fromWeights(TestAdapters.perturbed(fresh.snapshot(), 1L, 0.1f, false, 1), policy.config(), root);
             BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 8, parent)) {
            DecodingPolicy adapted = DecodingPolicy.of(policy.transformer(), lora);
            CompletableFuture<DecodedSequence> longRunning = new CompletableFuture<>();
            decoder.admit(List.of(new DecodeRequest(null, prompt(1), new SamplingParams(1f, 0, 1f, 120, 7L, Set.of(), List.of()),
                    longRunning)), adapted);
            int afterWarmUp = 0;
            for (int step = 0; step < 100; step++) {
                if (step % 6 == 0) {
                    decoder.admit(List.of(new DecodeRequest("c" + step % 3, prompt(step % 5),
                            new SamplingParams(1f, 0, 1f, 3, step, Set.of(), List.of()), new CompletableFuture<>())), adapted);
                }
                decoder.step(adapted);
                if (step == 20) afterWarmUp = parent.getManagedArrays().size();
            }
            int later = parent.getManagedArrays().size();
            assertTrue(!longRunning.isDone(), "the long sequence kept the batch alive throughout");
            assertTrue(later <= afterWarmUp, "arrays grew from " + afterWarmUp + " to " + later + " over 80 decode steps");
        }
    }

    @Test
    void continuousBatchingGivesTheSameTokensAsOneAtATime() throws Exception {
        int n = 7;
        List<DecodedSequence> alone = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            alone.add(BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), prompt(i), params(i), null));
        }
        List<CompletableFuture<DecodedSequence>> futures = new ArrayList<>();
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (InferenceEngine engine = new InferenceEngine(policy.transformer(), policy.tokenizer(), 4)) {
            for (int i = 0; i < n; i++) {
                int k = i;
                futures.add(CompletableFuture.supplyAsync(() -> engine.submit(prompt(k), params(k)), callers).thenCompose(f -> f));
            }
            for (int i = 0; i < n; i++) {
                DecodedSequence g = futures.get(i).get(60, TimeUnit.SECONDS);
                assertArrayEquals(alone.get(i).tokens(), g.tokens(), "sequence " + i);
                assertArrayEquals(alone.get(i).logProbs(), g.logProbs(), 1e-4f, "sequence " + i);
                assertEquals(FinishReason.MAX_TOKENS, g.finish());
                assertEquals(8 + 5 * i, g.tokens().length);
            }
        } finally {
            callers.shutdown();
        }
    }

    @Test
    void adapterSwapsBetweenStepsAndEveryTokenRecordsItsVersion() throws Exception {
        LoraConfig lc = new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj", "down_proj"));
        AdapterWeights v5;
        try (LoraAdapter fresh = LoraAdapter.create(lc, policy.config(), root, 1L)) {
            v5 = TestAdapters.perturbed(fresh.snapshot(), 5L, 0.1f, false, 5);
        }
        try (InferenceEngine engine = new InferenceEngine(policy.transformer(), policy.tokenizer(), 8)) {
            List<CompletableFuture<DecodedSequence>> early = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                early.add(engine.submit(prompt(i), new SamplingParams(0.8f, 0, 1f, 100, i, Set.of(), List.of())));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // counted from after the last submission: on a loaded machine the first steps may run before it is queued
            long submitted = engine.steps();
            while (engine.steps() < submitted + 3 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            engine.setAdapter(v5);
            while (engine.adapterVersion() != 5 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(5, engine.adapterVersion());
            DecodedSequence late = engine.submit(prompt(1), params(1)).get(60, TimeUnit.SECONDS);
            for (int v : late.policyVersions()) {
                assertEquals(5, v, "a request submitted after the swap runs on the new adapter only");
            }
            Map<Long, Integer> versionOfStep = new HashMap<>();
            for (CompletableFuture<DecodedSequence> f : early) {
                DecodedSequence g = f.get(60, TimeUnit.SECONDS);
                assertEquals(0, g.policyVersions()[0], "early requests start on the base model");
                for (int t = 0; t < g.tokens().length; t++) {
                    long step = g.steps()[t];
                    int version = g.policyVersions()[t];
                    assertTrue(t == 0 || version >= g.policyVersions()[t - 1], "versions never go back");
                    assertEquals(versionOfStep.computeIfAbsent(step, s -> version), version, "one version per step");
                }
            }
        }
    }

    @Test
    void decoderRecordsTheAdapterAndForwardPassOfEveryToken() {
        LoraConfig lc = new LoraConfig(2, 4f, 0f, Set.of("o_proj"));
        CompletableFuture<DecodedSequence> a = new CompletableFuture<>();
        CompletableFuture<DecodedSequence> b = new CompletableFuture<>();
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 2, root);
             LoraAdapter fresh = LoraAdapter.create(lc, policy.config(), root, 3L);
             LoraAdapter v7 = LoraAdapter.fromWeights(TestAdapters.perturbed(fresh.snapshot(), 1L, 0.1f, false, 7), policy.config(), root)) {
            DecodingPolicy base = DecodingPolicy.of(policy.transformer(), null);
            DecodingPolicy adapted = DecodingPolicy.of(policy.transformer(), v7);
            decoder.admit(List.of(new DecodeRequest(null, prompt(1), SamplingParams.greedy(4), a)), base); // forward 1 (prefill)
            decoder.step(base);                                                                           // forward 2
            decoder.step(adapted);                                                                        // forward 3
            decoder.admit(List.of(new DecodeRequest(null, prompt(2), SamplingParams.greedy(2), b)), adapted); // forward 4
            decoder.step(adapted);                                                             // forward 5: a ends, b ends
            assertEquals(5, decoder.stepCount());
        }
        assertArrayEquals(new int[] {0, 0, 7, 7}, a.join().policyVersions());
        assertArrayEquals(new long[] {1, 2, 3, 5}, a.join().steps());
        assertArrayEquals(new int[] {7, 7}, b.join().policyVersions());
        assertArrayEquals(new long[] {4, 5}, b.join().steps());
    }

    @Test
    void manyLongPromptsArePrefilledInGroupsWithTheSameResults() {
        int n = 40; // 40 x 120 prompt tokens exceed one prefill's token budget
        List<DecodeRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] p = new int[110 + i % 11];
            for (int j = 0; j < p.length; j++) {
                p[j] = 3 + (i * 13 + j * 7) % 60;
            }
            requests.add(new DecodeRequest(null, p, SamplingParams.greedy(3), new CompletableFuture<>()));
        }
        DecodingPolicy base = DecodingPolicy.of(policy.transformer(), null);
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), n, root)) {
            decoder.admit(requests, base);
            assertEquals(n, decoder.activeCount());
            while (decoder.activeCount() > 0) {
                decoder.step(base);
            }
        }
        for (DecodeRequest r : requests) {
            DecodedSequence alone = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), r.prompt(), r.params(), null);
            assertArrayEquals(alone.tokens(), r.result().join().tokens());
        }
    }

    @Test
    void badRequestsFailTheirOwnFutureOnly() throws Exception {
        try (InferenceEngine engine = new InferenceEngine(policy.transformer(), policy.tokenizer(), 4)) {
            CompletableFuture<DecodedSequence> bad = engine.submit(new int[] {3, 999}, params(0));
            CompletableFuture<DecodedSequence> good = engine.submit(prompt(2), params(2));
            ExecutionException e = assertThrows(ExecutionException.class, () -> bad.get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("999"), e.getCause().getMessage());
            assertEquals(18, good.get(30, TimeUnit.SECONDS).tokens().length);
        }
    }
}
