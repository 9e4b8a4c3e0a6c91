package dev.toolcoach.policy;

import dev.toolcoach.model.ComputeDevice;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The bridge over a real pretrained llama2.c model (stories260K), whose tokenizer has no chat tokens. */
class StoriesPolicyTest {

    @Test
    void greedyFromBosThroughTheBridgeGivesTheReferenceStory() throws Exception {
        String root = System.getProperty("toolcoach.shared.data");
        Path models = root == null ? null : Path.of(root, "models");
        assumeTrue(models != null && Files.isRegularFile(models.resolve("stories260K.bin")),
                "shared data absent (toolcoach.shared.data=" + root + "): stories260K policy test skipped");
        try (LocalPolicy policy = LocalPolicy.load(models.resolve("stories260K.bin"), models.resolve("tok512.bin"), null, 1, ComputeDevice.cpu())) {
            assertEquals(Map.of(), policy.tokenizer().specialTokens());
            assertEquals(Set.of(1, 2), policy.chatFormat().stopTokenIds(),
                    "no chat end-of-turn token: the model's EOS and llama2.c's BOS-as-end stop a reply");
            int bos = policy.model().tokenizer().bosId();
            Generation story = policy.generator().generate(new GenerationRequest("story", new int[]{bos},
                    SamplingParams.greedy(200))).toCompletableFuture().join();
            assertTrue(story.finishReason().cutOff(), story.finishReason().toString());
            assertEquals(Files.readString(models.resolve("stories260K.greedy200.expected.txt")), story.text());
        }
    }
}
