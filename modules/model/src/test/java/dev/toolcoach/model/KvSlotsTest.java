package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodeRequest;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.generate.DecoderStats;
import dev.toolcoach.model.generate.DecodingPolicy;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.KvSlots;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV cache of slots: a conversation's next turn on its kept slot, a group's shared prompt, a prefix copied from
 * another slot, eviction of parked slots, and adapters merged into the weights — each against decoding from scratch.
 */
class KvSlotsTest {
    private static final float LOGIT_TOLERANCE = 1e-4f;
    private static NDManager root;
    private static PolicyModel policy;
    private static DecodingPolicy base;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws Exception {
        root = TestModels.newRoot();
        TinyHfFolder.write(dir, TestModels.tinyQwen2(), 17L);
        policy = ModelLoader.load(dir, null, root);
        base = DecodingPolicy.of(policy.transformer(), null);
    }

    @AfterAll
    static void tearDown() {
        policy.close();
        root.close();
    }

    private static int[] tokens(int n, int salt) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = 3 + (salt * 11 + 7 * i + i * i) % 60;
        }
        return t;
    }

    private static int[] concat(int[]... parts) {
        int[] out = new int[0];
        for (int[] p : parts) {
            int at = out.length;
            out = Arrays.copyOf(out, at + p.length);
            System.arraycopy(p, 0, out, at, p.length);
        }
        return out;
    }

    private static SamplingParams sampled(int tokens, long seed) {
        return new SamplingParams(0.9f, 0, 1f, tokens, seed, Set.of(), List.of());
    }

    /** Last-position logits of {@code context} prefilled whole into a fresh one-slot cache. */
    private static float[] fullPrefill(Transformer model, int[] context) {
        try (KvSlots cache = new KvSlots(model.config(), root, 1, model.dtype());
             NDManager scope = root.newSubManager()) {
            return model.forward(StepInputs.slotted(new int[][] {context}, new int[] {0}, new int[] {0}), scope, cache, null,
                    false, true).toFloatArray();
        }
    }

    private static void assertLogitsClose(String what, float[] expected, float[] actual) {
        float scale = 1;
        for (float v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], LOGIT_TOLERANCE * scale, what + ", logit " + i);
        }
    }

    @Test
    void aTurnDecodedOnAKeptCacheHasTheLogitsOfAFullPrefill() {
        Transformer model = policy.transformer();
        int[] prompt = tokens(12, 1);
        int[] reply = tokens(5, 2);
        int[] observation = tokens(7, 3);
        try (KvSlots cache = new KvSlots(model.config(), root, 3, model.dtype())) {
            // the conversation lives in slot 2 while slot 0 holds another sequence (never read by slot 2's rows)
            try (NDManager scope = root.newSubManager()) {
                model.forward(StepInputs.slotted(new int[][] {tokens(30, 9), prompt}, new int[] {0, 2}, new int[] {0, 0}),
                        scope, cache, null, false, true);
            }
            for (int i = 0; i < reply.length; i++) { // the reply fed one token per step
                try (NDManager scope = root.newSubManager()) {
                    model.forward(StepInputs.slotted(new int[][] {{reply[i]}}, new int[] {2}, new int[] {prompt.length + i}),
                            scope, cache, null, false, true);
                }
            }
            float[] kept;
            try (NDManager scope = root.newSubManager()) { // the next turn: only the observation is prefilled
                kept = model.forward(StepInputs.slotted(new int[][] {observation}, new int[] {2},
                        new int[] {prompt.length + reply.length}), scope, cache, null, false, true).toFloatArray();
            }
            assertLogitsClose("next turn on the kept cache", fullPrefill(model, concat(prompt, reply, observation)), kept);
        }
    }

    @Test
    void aConversationsNextTurnPrefillsOnlyItsNewTokensAndDecodesAsFromScratch() {
        int[] prompt = tokens(20, 4);
        int[] observation = tokens(6, 5);
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 4, root)) {
            DecodedSequence first = run(decoder, "c", prompt, sampled(8, 1L));
            int[] next = concat(prompt, first.tokens(), observation);
            DecoderStats before = decoder.stats();
            DecodedSequence second = run(decoder, "c", next, sampled(8, 2L));
            DecoderStats after = decoder.stats();
            // the slot held the prompt and every generated token but the last, which was sampled and never fed
            assertEquals(prompt.length + first.tokens().length - 1, after.reusedTokens() - before.reusedTokens());
            assertEquals(1 + observation.length, after.prefillTokens() - before.prefillTokens());
            DecodedSequence fresh = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), next, sampled(8, 2L), null);
            assertArrayEquals(fresh.tokens(), second.tokens());
            assertArrayEquals(fresh.logProbs(), second.logProbs(), LOGIT_TOLERANCE);
        }
    }

    @Test
    void aGroupsSharedPromptIsPrefilledOnce() {
        int[] prompt = tokens(24, 6);
        int group = 4;
        List<DecodeRequest> requests = new ArrayList<>();
        for (int g = 0; g < group; g++) {
            requests.add(new DecodeRequest("r" + g, prompt, sampled(10, 40L + g), new CompletableFuture<>()));
        }
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), group, root)) {
            decoder.admit(requests, base);
            while (decoder.activeCount() > 0) {
                decoder.step(base);
            }
            DecoderStats stats = decoder.stats();
            assertEquals(prompt.length, stats.prefillTokens(), "one prefill for the group");
            assertEquals((long) (group - 1) * prompt.length, stats.sharedTokens());
        }
        for (int g = 0; g < group; g++) {
            DecodedSequence alone = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), prompt, sampled(10, 40L + g), null);
            DecodedSequence shared = requests.get(g).result().join();
            assertArrayEquals(alone.tokens(), shared.tokens(), "rollout " + g);
            assertArrayEquals(alone.logProbs(), shared.logProbs(), LOGIT_TOLERANCE, "rollout " + g);
        }
    }

    @Test
    void aLongCommonPrefixIsCopiedFromAnotherSlotComputedByTheSameAdapterOnly() throws Exception {
        int[] system = tokens(BatchDecoder.MIN_SHARED_PREFIX + 4, 7);
        int[] a = concat(system, tokens(5, 8));
        int[] b = concat(system, tokens(6, 9));
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 4, root);
             LoraAdapter fresh = LoraAdapter.create(new LoraConfig(2, 4f, 0f, Set.of("q_proj", "v_proj")), policy.config(), root, 1L);
             LoraAdapter v3 = LoraAdapter.fromWeights(TestAdapters.perturbed(fresh.snapshot(), 2L, 0.1f, false, 3), policy.config(), root)) {
            run(decoder, "a", a, sampled(4, 1L));
            DecodedSequence copied = run(decoder, "b", b, sampled(6, 2L)); // a free slot, and a's prefix copied into it
            assertEquals(system.length, decoder.stats().sharedTokens(), "the system prompt, copied");
            DecodedSequence alone = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), b, sampled(6, 2L), null);
            assertArrayEquals(alone.tokens(), copied.tokens());
            assertArrayEquals(alone.logProbs(), copied.logProbs(), LOGIT_TOLERANCE);
            // under a newer adapter the base's keys are not that policy's: nothing is copied
            DecodingPolicy adapted = DecodingPolicy.of(policy.transformer(), v3);
            long shared = decoder.stats().sharedTokens();
            CompletableFuture<DecodedSequence> out = new CompletableFuture<>();
            decoder.admit(List.of(new DecodeRequest(null, concat(system, tokens(3, 10)), sampled(3, 3L), out)), adapted);
            while (!out.isDone()) {
                decoder.step(adapted);
            }
            assertEquals(shared, decoder.stats().sharedTokens());
        }
    }

    @Test
    void aRequestOfNoConversationTakesOverAParkedPrefixOfNoConversationInPlace() {
        int[] system = tokens(BatchDecoder.MIN_SHARED_PREFIX + 2, 18);
        int[] b = concat(system, tokens(4, 19));
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 1, root)) {
            run(decoder, null, concat(system, tokens(3, 20)), sampled(3, 1L));
            long prefilled = decoder.stats().prefillTokens();
            DecodedSequence got = run(decoder, null, b, sampled(5, 2L));
            assertEquals(4, decoder.stats().prefillTokens() - prefilled, "only what follows the shared prefix");
            assertEquals(0, decoder.stats().evictions());
            DecodedSequence alone = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), b, sampled(5, 2L), null);
            assertArrayEquals(alone.tokens(), got.tokens());
            assertArrayEquals(alone.logProbs(), got.logProbs(), LOGIT_TOLERANCE);
        }
    }

    @Test
    void parkedSlotsAreEvictedLeastRecentlyUsedFirstAndTheirNextTurnStartsOver() {
        int[] pa = tokens(9, 11);
        int[] pb = tokens(10, 12);
        int[] pc = tokens(11, 13);
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 2, root)) {
            DecodedSequence a1 = run(decoder, "a", pa, sampled(4, 1L));
            run(decoder, "b", pb, sampled(4, 2L));
            run(decoder, "c", pc, sampled(4, 3L)); // both slots parked: a, the least recently used, goes
            assertEquals(1, decoder.stats().evictions());
            int[] next = concat(pa, a1.tokens(), tokens(3, 14));
            long reused = decoder.stats().reusedTokens();
            DecodedSequence a2 = run(decoder, "a", next, sampled(5, 4L));
            assertEquals(2, decoder.stats().evictions());
            assertEquals(reused, decoder.stats().reusedTokens(), "an evicted conversation prefills its whole context");
            DecodedSequence fresh = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), next, sampled(5, 4L), null);
            assertArrayEquals(fresh.tokens(), a2.tokens());
            decoder.release("a");
            decoder.release("c");
            assertEquals(0, decoder.stats().parked());
        }
    }

    @Test
    void releasedConversationsFreeTheirSlots() {
        try (BatchDecoder decoder = new BatchDecoder(policy.transformer(), policy.tokenizer(), 3, root)) {
            run(decoder, "x", tokens(8, 15), sampled(3, 1L));
            run(decoder, "y", tokens(8, 16), sampled(3, 2L));
            assertEquals(2, decoder.stats().parked());
            decoder.release("x");
            decoder.release("unknown");
            assertEquals(1, decoder.stats().parked());
            decoder.release("y");
            assertEquals(0, decoder.stats().parked());
        }
    }

    @Test
    void aMergedAdapterDecodesAsTheAdapterAppliedAtEveryStep() throws Exception {
        LoraConfig lc = new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS));
        AdapterWeights v2;
        try (LoraAdapter fresh = LoraAdapter.create(lc, policy.config(), root, 5L)) {
            v2 = TestAdapters.perturbed(fresh.snapshot(), 6L, 0.2f, false, 2);
        }
        int[] context = tokens(15, 17);
        try (LoraAdapter lora = LoraAdapter.fromWeights(v2, policy.config(), root);
             Transformer merged = policy.transformer().withAdapterMerged(lora, root);
             KvSlots cache = new KvSlots(policy.config(), root, 1, policy.transformer().dtype());
             NDManager scope = root.newSubManager()) {
            float[] perStep = policy.transformer().forward(StepInputs.slotted(new int[][] {context}, new int[] {0}, new int[] {0}),
                    scope, cache, lora, false, true).toFloatArray();
            assertLogitsClose("merged", perStep, fullPrefill(merged, context));
        }
        DecodedSequence expected;
        try (LoraAdapter lora = LoraAdapter.fromWeights(v2, policy.config(), root)) {
            expected = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), context, sampled(12, 9L), lora);
        }
        try (InferenceEngine engine = new InferenceEngine(policy.transformer(), policy.tokenizer(), 2)) {
            engine.setAdapter(v2);
            engine.whenAdapterAtLeast(2).get(30, TimeUnit.SECONDS);
            assertTrue(engine.adapterMerged(), "a tiny model's adapter is merged");
            DecodedSequence got = engine.submit("conv", context, sampled(12, 9L)).get(30, TimeUnit.SECONDS);
            assertArrayEquals(expected.tokens(), got.tokens());
            assertArrayEquals(expected.logProbs(), got.logProbs(), LOGIT_TOLERANCE);
            for (int v : got.policyVersions()) {
                assertEquals(2, v);
            }
        }
    }

    /** One request through the decoder to its end. */
    private static DecodedSequence run(BatchDecoder decoder, String conversation, int[] context, SamplingParams params) {
        CompletableFuture<DecodedSequence> out = new CompletableFuture<>();
        decoder.admit(List.of(new DecodeRequest(conversation, context, params, out)), base);
        while (!out.isDone()) {
            decoder.step(base);
        }
        return out.join();
    }
}
