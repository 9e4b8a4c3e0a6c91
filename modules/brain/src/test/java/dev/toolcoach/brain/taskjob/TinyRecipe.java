package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.model.lora.LoraConfig;

import java.util.Set;

/** A recipe small enough for tests that run the whole job; the learning itself is measured by the recipe's benchmark. */
public final class TinyRecipe {
    private TinyRecipe() {
    }

    /** Two layers of 32 dims, a vocabulary from 64 examples' oracle texts, 8 warm-up traces, 2 steps of 2 groups of 4, 3 turns of at most 96 tokens (room for the oracle's replies), 20 test questions, pass@k on 4 training queries. */
    public static ScratchRecipe get() {
        return new ScratchRecipe(new ScratchModel.Shape(32, 64, 2, 2, 2, 768), new ScratchRecipe.Vocabulary(64, 8, 64),
                new ScratchRecipe.Warmup(8, 2, 4, 3e-3),
                new ScratchRecipe.Grpo(4, 2, 2, 1.0f, 2e-3, 0.5, new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj")), 1, 0),
                new ScratchRecipe.Rollouts(3, 768, 96, 8), new ScratchRecipe.Evaluation(20, 4, 0, 64));
    }
}
