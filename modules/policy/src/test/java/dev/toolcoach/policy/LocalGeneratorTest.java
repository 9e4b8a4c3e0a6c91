package dev.toolcoach.policy;

import dev.toolcoach.model.ComputeDevice;

import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.ContextTooLong;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalGeneratorTest {

    @TempDir
    static Path dir;
    private static LocalPolicy policy;
    private static int[] context;

    @BeforeAll
    static void load() throws Exception {
        policy = LocalPolicy.load(TinyChatModel.write(dir.resolve("model"), 3), null, null, 8, ComputeDevice.cpu());
        context = policy.tokenizer().encode("<|im_start|>user\nWhat is 2+3?<|im_end|>\n<|im_start|>assistant\n");
    }

    @AfterAll
    static void close() {
        policy.close();
    }

    private static Generation generate(SamplingParams sampling) {
        return policy.generator().generate(new GenerationRequest("t", context, sampling)).toCompletableFuture().join();
    }

    @Test
    void idsLogprobsAndVersionsAreExactlyTheEnginesForTheSameSampling() {
        SamplingParams sampling = new SamplingParams(0.8f, 50, 0.9f, 40, 5L);
        Generation mine = generate(sampling);
        DecodedSequence engine = policy.engine().submit(context,
                new SamplingParams(0.8f, 50, 0.9f, 40, 5L, Set.of(TinyChatModel.IM_END), List.of())).join();
        assertArrayEquals(engine.tokens(), mine.tokenIds());
        // the second request reuses the first one's cached prompt keys instead of computing them in another batch shape:
        // the same values up to float32 summation order
        assertArrayEquals(engine.logProbs(), mine.logprobs(), 1e-5f);
        assertArrayEquals(engine.policyVersions(), mine.policyVersions());
        assertTrue(IntStream.range(0, mine.length()).allMatch(i -> mine.logprobs()[i] < 0f), "sampled tokens carry real log-probs");
    }

    @Test
    void topKOfOneIsGreedyAndTheSeedMakesSamplingReproducible() {
        Generation greedy = generate(SamplingParams.greedy(30));
        assertArrayEquals(greedy.tokenIds(), generate(new SamplingParams(1f, 1, 1f, 30, 99L)).tokenIds());
        SamplingParams sampled = new SamplingParams(1.2f, 0, 1f, 30, 42L);
        assertEquals(generate(sampled), generate(sampled));
        assertFalse(Arrays.equals(generate(sampled).tokenIds(), generate(new SamplingParams(1.2f, 0, 1f, 30, 43L)).tokenIds()));
    }

    @Test
    void aReplyEndedByTheStopTokenKeepsItsIdButNotItsText() {
        List<CompletableFuture<Generation>> runs = IntStream.range(0, 24)
                .mapToObj(seed -> policy.generator().generate(new GenerationRequest("s" + seed, context,
                        new SamplingParams(1.5f, 0, 1f, 48, seed))).toCompletableFuture())
                .toList();
        List<Generation> replies = runs.stream().map(CompletableFuture::join).toList();
        List<Generation> stopped = replies.stream().filter(g -> g.finishReason() == FinishReason.STOP_TOKEN).toList();
        assertFalse(stopped.isEmpty(), "some of 24 sampled replies end with <|im_end|>");
        for (Generation g : stopped) {
            int[] ids = g.tokenIds();
            assertEquals(TinyChatModel.IM_END, ids[ids.length - 1]);
            assertEquals(policy.tokenizer().decode(Arrays.copyOf(ids, ids.length - 1)), g.text());
            assertFalse(g.text().contains("<|im_end|>"), g.text());
        }
        for (Generation g : replies) {
            if (g.finishReason().cutOff()) {
                assertEquals(48, g.length());
                assertEquals(policy.tokenizer().decode(g.tokenIds()), g.text());
            }
        }
    }

    @Test
    void aContextLongerThanTheModelWindowFailsTheStageWithTheReason() {
        int[] tooLong = new int[TinyChatModel.config().maxSeqLen()];
        CompletionException e = assertThrows(CompletionException.class, () -> policy.generator()
                .generate(new GenerationRequest("long", tooLong, SamplingParams.greedy(4))).toCompletableFuture().join());
        assertInstanceOf(ContextTooLong.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("the model's context of 4096 leaves no room"), e.getCause().getMessage());
    }
}
