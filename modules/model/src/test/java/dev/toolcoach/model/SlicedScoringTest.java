package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.StepInputs;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scoring a slice of positions at a time gives the log-probs, entropies and gradients of whole logits. */
class SlicedScoringTest {
    private static final int[][] TOKENS = {{1, 5, 9, 13, 22, 40, 7, 3, 11}, {1, 60, 2, 33, 33, 8, 0, 0, 0}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 0, 0, 0}};

    @Test
    void slicesEqualWholeLogitsInValuesAndGradients() {
        try (NDManager root = TestModels.newRoot();
             PolicyModel policy = PolicyModel.random(TestModels.tinyQwen2(), 3L, null, root)) {
            policy.addLora(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), 5L);
            // B starts at zero: give it values so the adapter's gradients are not all zero
            policy.lora().parameters().forEach(p -> p.addi(p.getManager().randomNormal(0, 0.05f, p.getShape(), p.getDataType())));
            int vocab = policy.config().vocabSize();
            Scored whole = run(policy, root, (h, targets) -> TokenScores.fromLogits(policy.transformer().head(h), targets));
            // 2 rows × 3 positions × vocab per slice: the 9 positions in 3 slices
            Scored sliced = run(policy, root, (h, targets) -> TokenScores.score(policy.transformer(), h, targets, 2L * 3 * vocab));
            Scored ragged = run(policy, root, (h, targets) -> TokenScores.score(policy.transformer(), h, targets, 2L * 4 * vocab));
            // equal up to float rounding: a slice's matmul may block its sums differently (values about 4, so 1e-5 is
            // a few ulps), while a wrong slice, target or offset would move them by far more
            for (Scored s : List.of(sliced, ragged)) {
                assertArrayEquals(whole.logprobs, s.logprobs, 1e-5f);
                assertArrayEquals(whole.entropy, s.entropy, 1e-5f);
                assertEquals(whole.gradients.size(), s.gradients.size());
                for (int i = 0; i < whole.gradients.size(); i++) {
                    assertArrayEquals(whole.gradients.get(i), s.gradients.get(i), 1e-5f, "gradient " + i);
                }
            }
        }
    }

    private record Scored(float[] logprobs, float[] entropy, List<float[]> gradients) {
    }

    private interface Scorer {
        TokenScores apply(NDArray hidden, NDArray targets);
    }

    private static Scored run(PolicyModel policy, NDManager root, Scorer scorer) {
        try (NDManager scope = root.newSubManager()) {
            int rows = TOKENS.length;
            int len = TOKENS[0].length;
            int[] next = new int[rows * len];
            for (int b = 0; b < rows; b++) {
                System.arraycopy(TOKENS[b], 1, next, b * len, len - 1);
            }
            NDArray targets = scope.create(next, new Shape(rows, len));
            TokenScores s;
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray hidden = policy.transformer().hidden(StepInputs.scoring(TOKENS, MASK), scope, null, policy.lora(), true, false);
                s = scorer.apply(hidden, targets);
                gc.backward(s.logprobs().sum().neg());
            }
            List<float[]> grads = new ArrayList<>();
            for (NDArray p : policy.trainableParameters()) {
                grads.add(p.getGradient().toFloatArray());
                p.getGradient().subi(p.getGradient()); // zero for the next run
            }
            return new Scored(s.logprobs().toFloatArray(), s.entropy().toFloatArray(), grads);
        }
    }
}
