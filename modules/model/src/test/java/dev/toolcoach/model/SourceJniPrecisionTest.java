package dev.toolcoach.model;

import org.apache.commons.math3.linear.ArrayRealVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mixed precision on ToolCoach's build of DJL's JNI (deploy/gpu/install-torch-jni.sh; run with its torch.env sourced,
 * skipped otherwise; CI exercises the same through {@code coach-node doctor --precision bf16|f16} in the deploy module's
 * InstalledTorchIT): for every family, a bf16 or f16 base keeps the logits near the f32 base's and gives a trainable
 * adapter the f32 base's gradient (the cast fix), and bf16 tensors exist at all (the dtype fix).
 */
class SourceJniPrecisionTest {
    private static final int[][] TOKENS = {{1, 5, 9, 2, 7, 3, 11, 4}, {0, 0, 1, 8, 6, 12, 2, 9}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 1, 1, 1, 1}};

    @BeforeAll
    static void needsToolCoachsJni() {
        Assumptions.assumeTrue(TorchRuntime.current().features().containsAll(Set.of(TorchRuntime.BF16, TorchRuntime.CAST_GRADIENT)),
                "needs ToolCoach's build of DJL's JNI: source the torch.env of deploy/gpu/install-torch-jni.sh");
    }

    @Test
    void aSixteenBitBaseGivesTheAdapterTheF32BasesGradientForEveryFamily(@TempDir Path dir) throws IOException {
        assertTrue(TorchRuntime.castsCarryGradient());
        try (NDManager root = TestModels.newRoot()) {
            for (Family family : Family.values()) {
                Path folder = TinyHfFolders.write(dir.resolve(family.name()), family, Rope.DEFAULT, ConfigStyle.V4, 6L);
                HfModelFolder.Located located = HfModelFolder.locate(folder);
                for (Precision precision : new Precision[] {Precision.F16, Precision.BF16}) {
                    try (Transformer full = Transformer.load(located.config(), located.tensors(), root);
                         Transformer half = Transformer.load(located.config(), located.tensors(), root, precision.dataType());
                         LoraAdapter adapter = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)),
                                 located.config(), root, 9L)) {
                        assertEquals(precision.dataType(), half.weights().layers().get(0).wqkv().getDataType());
                        adapter.parameters().forEach(p -> p.addi(p.getManager().randomNormal(0, 0.05f, p.getShape(), p.getDataType())));
                        adapter.setTrainable(true);
                        double[] expected = gradient(full, adapter);
                        double[] actual = gradient(half, adapter);
                        double cosine = new ArrayRealVector(expected).cosine(new ArrayRealVector(actual));
                        assertTrue(cosine > 0.98, family + " " + precision + ": gradient cosine " + cosine);
                    }
                }
            }
        }
    }

    /**
     * The adapter's gradient of the summed log-probabilities of the next tokens at the positions the mask keeps (as the
     * learner scores: a padding position attends to nothing, and its output is the attention kernel's own filler).
     */
    private static double[] gradient(Transformer model, LoraAdapter adapter) {
        try (NDManager scope = model.manager().newSubManager();
             GradientCollector collector = Engine.getInstance().newGradientCollector()) {
            NDArray logits = model.forward(StepInputs.scoring(TOKENS, MASK), scope, null, adapter, false, false);
            float[] kept = new float[MASK.length * MASK[0].length];
            for (int i = 0; i < kept.length; i++) {
                kept[i] = MASK[i / MASK[0].length][i % MASK[0].length];
            }
            collector.backward(logits.logSoftmax(-1).get(new NDIndex(":, :, 3")).mul(scope.create(kept, new Shape(MASK.length, MASK[0].length)))
                    .sum());
            List<Double> g = new ArrayList<>();
            for (NDArray p : adapter.parameters()) {
                try (NDArray grad = p.getGradient()) {
                    for (float v : grad.toFloatArray()) {
                        g.add((double) v);
                    }
                    grad.set(new NDIndex("..."), 0f);
                }
            }
            assertTrue(g.stream().anyMatch(v -> v != 0), "the adapter got no gradient through a " + model.dtype() + " base");
            return g.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }
}
