package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.ComputeDevice;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Message;
import ai.djl.ndarray.NDManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A task-sized model built from the finance task's oracle texts, opened like any HF folder. */
class ScratchModelTest {

    private static final ScratchModel.Shape SHAPE = new ScratchModel.Shape(32, 64, 2, 4, 2, 512);

    @TempDir
    static Path dir;
    private static List<String> texts;
    private static ScratchModel model;

    @BeforeAll
    static void build() throws Exception {
        try (ToolExecutor tools = FinanceTools.executor()) {
            texts = TaskTexts.of(FinanceTask.create(60, 3L).examples(), tools, ScratchRecipe.defaults().greedyAgent());
        }
        model = ScratchModel.write(dir.resolve("model"), TaskVocabulary.learn(texts, 300, 4), SHAPE, 7L);
    }

    @Test
    void tokenizerRoundTripsEveryTaskTextAndKeepsDigitsSingle() {
        try (NDManager manager = NDManager.newBaseManager(); PolicyModel loaded = ModelLoader.load(model.dir(), null, manager)) {
            for (String text : texts) {
                int[] ids = loaded.tokenizer().encode(text);
                assertEquals(text, loaded.tokenizer().decode(ids));
                assertTrue(ids.length * 3 < text.length(), "task text is not compressed: " + ids.length + " tokens");
            }
            assertEquals(11, loaded.tokenizer().encode("12345678901").length);
        }
        for (Merge m : model.vocabulary().merges()) {
            assertFalse(m.merged().chars().anyMatch(Character::isDigit), "merge " + m + " joins a digit");
        }
        assertEquals(model.vocabulary().size(), model.config().vocabSize());
    }

    @Test
    void folderLoadsAsALocalPolicyAndGenerates() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(model.dir(), null, null, 2, ComputeDevice.cpu())) {
            assertEquals(Set.of(model.vocabulary().imEndId()), policy.chatFormat().stopTokenIds());
            String prompt = policy.chatFormat().renderPrompt(List.of(Message.user(texts.get(0).substring(0, 20))));
            Generation reply = policy.generator().generate(new GenerationRequest("t", policy.tokenizer().encode(prompt),
                    new SamplingParams(1f, 0, 1f, 12, 3L))).toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertTrue(reply.length() > 0 && reply.length() <= 12, reply.toString());
            assertTrue(policy.tokenizer().encode(prompt).length < prompt.length());
        }
    }
}
