package dev.toolcoach.testkit;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.model.config.Rope;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A chat model (Qwen2 unless told otherwise) that answers every turn with one fixed reply (a tool call, say), whatever it is shown:
 * the reply is a single BPE token (merges chain its bytes left to right), the layers add nothing to the
 * residual (their output projections are zero), so the next token depends on the last one alone, and the LM
 * head sends every token but the reply to the reply and the reply to {@code <|im_end|>}, with margins large
 * enough that sampling at temperature 1 is as good as greedy. For tests that need real tool traffic from a
 * real engine (the brain's cluster runs, coach-node's bfcl-eval); LoRA on it learns nothing.
 */
public final class ToolCallingModel {
    private static final float MARGIN = 200f;

    private ToolCallingModel() {
    }

    /** A Qwen2 folder with ChatML's special tokens. */
    public static Path write(Path dir, String reply) throws IOException {
        return write(dir, ModelFamily.QWEN2, TinyChatModel.SPECIALS, "<|im_end|>", reply);
    }

    /**
     * A folder of {@code family} (its own shape features: Qwen3's explicit head_dim and q/k norms, Phi-3's partial
     * rotary and fused tensors on disk) whose tokenizer knows {@code specials}; the reply is followed by
     * {@code endOfTurn}, one of them.
     */
    public static Path write(Path dir, ModelFamily family, List<String> specials, String endOfTurn, String reply) throws IOException {
        List<Merge> merges = new ArrayList<>();
        String bytes = ByteLevelTokenizerJson.toByteLevel(reply);
        String left = bytes.substring(0, 1);
        for (int i = 1; i < bytes.length(); i++) {
            merges.add(new Merge(left, bytes.substring(i, i + 1)));
            left += bytes.charAt(i);
        }
        int vocab = ByteLevelTokenizerJson.vocabSize(specials, merges);
        int replyId = ByteLevelTokenizerJson.firstSpecialId(merges) - 1;
        int imEnd = ByteLevelTokenizerJson.firstSpecialId(merges) + specials.indexOf(endOfTurn);
        ModelConfig config = config(family, vocab);
        Map<String, HostTensor> weights = ModelWeights.randomHf(config, 11);
        weights.forEach((name, tensor) -> {
            if (name.endsWith("o_proj.weight") || name.endsWith("down_proj.weight")) Arrays.fill(tensor.data(), 0f);
        });
        int dim = config.dim();
        float[] embedding = weights.get(HfNames.EMBED).data();
        float[] head = weights.get(HfNames.LM_HEAD).data();
        Arrays.fill(embedding, 0f);
        Arrays.fill(head, 0f);
        for (int token = 0; token < vocab; token++) embedding[token * dim + (token == replyId ? 0 : 1)] = 1f;
        head[replyId * dim + 1] = MARGIN; // any token but the reply → the reply
        head[imEnd * dim] = MARGIN;       // the reply → end of turn

        Files.createDirectories(dir);
        HfModelFolder.write(dir, config, weights);
        ByteLevelTokenizerJson.write(dir.resolve("tokenizer.json"), specials, merges);
        Files.writeString(dir.resolve("generation_config.json"), "{\"eos_token_id\": [" + imEnd + "]}");
        return dir;
    }

    private static ModelConfig config(ModelFamily family, int vocab) {
        return switch (family) {
            case QWEN2 -> new ModelConfig("qwen2", 32, 48, 2, 4, 2, vocab, 4096, 1e-6f, 1_000_000f, false, true);
            case LLAMA -> ModelConfig.llama(32, 48, 2, 4, 2, vocab, 4096);
            case QWEN3 -> new ModelConfig(family, 32, 48, 2, 4, 2, 16, vocab, 4096, 1e-6f, new Rope.Default(1_000_000), 16,
                    false, false, false, 0);
            case PHI3 -> new ModelConfig(family, 32, 48, 2, 4, 2, 8, vocab, 4096, 1e-5f, new Rope.Default(10_000), 6,
                    false, false, false, 0);
            case MISTRAL -> new ModelConfig(family, 32, 48, 2, 4, 2, 8, vocab, 4096, 1e-5f, new Rope.Default(10_000), 8,
                    false, false, false, 16);
        };
    }
}
