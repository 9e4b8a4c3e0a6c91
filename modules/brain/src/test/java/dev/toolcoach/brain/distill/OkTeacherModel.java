package dev.toolcoach.brain.distill;

import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.testkit.TinyChatModel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * A teacher folder with hand-set weights, in {@link TinyChatModel}'s shape and tokenizer, that replies "ok" to
 * anything: every layer's output projection is zero, so the next token depends on the last token alone, and the
 * embedding and head form the chain (any token) → 'o' → 'k' → {@code <|im_end|>}. A random model never ends its
 * reply; this one answers in three tokens, so its replies are complete answers a distillation can keep.
 */
final class OkTeacherModel {

    private static final int O = 'o';
    private static final int K = 'k';

    private OkTeacherModel() {
    }

    static Path write(Path dir) throws IOException {
        TinyChatModel.write(dir, 1);
        ModelConfig c = TinyChatModel.config();
        Map<String, HostTensor> t = ModelWeights.randomHf(c, 1);
        for (Map.Entry<String, HostTensor> e : t.entrySet()) {
            if (e.getKey().endsWith("o_proj.weight") || e.getKey().endsWith("down_proj.weight")) {
                Arrays.fill(e.getValue().data(), 0f);
            }
        }
        int d = c.dim();
        float[] embed = t.get(HfNames.EMBED).data();
        Arrays.fill(embed, 0f);
        for (int token = 0; token < c.vocabSize(); token++) embed[token * d + (token == O ? 1 : token == K ? 2 : 0)] = 1f;
        float[] head = t.get(HfNames.LM_HEAD).data();
        Arrays.fill(head, 0f);
        head[O * d] = 10f;                       // after any other token: 'o'
        head[K * d + 1] = 10f;                   // after 'o': 'k'
        head[TinyChatModel.IM_END * d + 2] = 10f; // after 'k': end of turn
        HfModelFolder.write(dir, c, t);
        return dir;
    }
}
