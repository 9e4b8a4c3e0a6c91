package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.SamplingParams;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationStopTest {
    private static final int[] PROMPT = {1, 7, 8, 9};
    private static NDManager root;
    private static PolicyModel policy;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws Exception {
        root = TestModels.newRoot();
        policy = ModelLoader.load(TinyHfFolder.write(dir, TestModels.tinyLlama(), 8L), null, root);
    }

    @AfterAll
    static void tearDown() {
        policy.close();
        root.close();
    }

    private static DecodedSequence generate(int max, Set<Integer> stopIds, List<String> stopStrings) {
        return BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), PROMPT,
                new SamplingParams(0.7f, 0, 1f, max, 5L, stopIds, stopStrings), null);
    }

    @Test
    void stopsAtMaxTokensStopTokenOrStopString() {
        DecodedSequence full = generate(20, Set.of(), List.of());
        assertEquals(FinishReason.MAX_TOKENS, full.finish());
        assertEquals(20, full.tokens().length);

        int stopToken = full.tokens()[5];
        int firstAt = Arrays.stream(full.tokens()).boxed().toList().indexOf(stopToken);
        DecodedSequence byToken = generate(20, Set.of(stopToken), List.of());
        assertEquals(FinishReason.STOP_TOKEN, byToken.finish());
        assertArrayEquals(Arrays.copyOf(full.tokens(), firstAt + 1), byToken.tokens(), "same seed, same prefix, stop token kept");

        String stop = policy.tokenizer().decode(new int[] {full.tokens()[3]});
        DecodedSequence byString = generate(20, Set.of(), List.of(stop));
        assertEquals(FinishReason.STOP_STRING, byString.finish());
        assertTrue(byString.text().endsWith(stop), byString.text());
        assertTrue(byString.tokens().length <= 4);
    }

    @Test
    void contextFullEndsTheSequence() {
        int[] longPrompt = new int[policy.config().maxSeqLen() - 3];
        Arrays.fill(longPrompt, 9);
        DecodedSequence g = BatchDecoder.decodeOne(policy.transformer(), policy.tokenizer(), longPrompt, SamplingParams.greedy(50), null);
        assertEquals(FinishReason.CONTEXT_FULL, g.finish());
        assertEquals(3, g.tokens().length);
    }

    @Test
    void generationAndScoringLeaveNothingInTheModelsManager() {
        long before = policy.transformer().manager().getManagedArrays().size();
        generate(10, Set.of(), List.of());
        try (NDManager scope = root.newSubManager()) {
            policy.score(scope, new int[][] {PROMPT}, new int[][] {{1, 1, 1, 1}}, false, false);
        }
        assertEquals(before, policy.transformer().manager().getManagedArrays().size());
    }
}
