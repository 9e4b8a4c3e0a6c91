package dev.toolcoach.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.training.GradientCollector;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch whose rows share a prefix, scored with the prefix computed once, against the same batch scored row by row:
 * the hidden states of every later position and an adapter's gradient agree to float rounding, for rows that carry
 * padding and a second context (a template that rewrote an earlier turn), on the families with q/k/v biases, q/k norms
 * and a sliding window.
 */
class SharedPrefixTest {
    private static final int PREFIX = 7;
    private static NDManager root;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() {
        OpThreads.setIntraOp(1);
        root = NDManager.newBaseManager();
    }

    @AfterAll
    static void tearDown() {
        root.close();
    }

    /** Three rows: the same 7 tokens, then their own; row 1 right-padded, row 2 with a second context. */
    private static int[][] tokens(int vocab) {
        int[][] t = new int[3][16];
        for (int r = 0; r < 3; r++) {
            for (int i = 0; i < 16; i++) {
                t[r][i] = i < PREFIX ? (3 + 5 * i) % vocab : (7 + 11 * r + 3 * i + i * i) % vocab;
            }
        }
        return t;
    }

    private static int[][] attention() {
        int[][] a = new int[3][16];
        for (int i = 0; i < 16; i++) {
            a[0][i] = 1;
            a[1][i] = i < 13 ? 1 : 0;
            a[2][i] = i < 11 ? 1 : 2;
        }
        return a;
    }

    @Test
    void aSharedPrefixScoresAsTheRowsDoOneByOne() throws Exception {
        for (Object[] c : new Object[][] {{Family.QWEN2, Rope.DEFAULT}, {Family.QWEN3, Rope.DEFAULT}, {Family.MISTRAL, Rope.LINEAR},
                {Family.LLAMA, Rope.LLAMA3}}) {
            Path dir = TinyHfFolders.write(tmp.resolve(c[0] + "-" + c[1]), (Family) c[0], (Rope) c[1], ConfigStyle.V5, 5L);
            HfModelFolder.Contents contents = HfModelFolder.read(dir);
            try (Transformer model = Transformer.create(contents.config(), contents.tensors(), root);
                 LoraAdapter lora = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)),
                         contents.config(), root, 3L)) {
                lora.parameters().forEach(p -> p.addi(p.getManager().randomNormal(0, 0.05f, p.getShape(), p.getDataType())));
                lora.setTrainable(true);
                int[][] tokens = tokens(contents.config().vocabSize());
                int[][] attention = attention();
                assertEquals(PREFIX, SharedPrefixInputs.commonPrefix(tokens, attention));
                Scored whole = score(model, lora, tokens, attention, false);
                Scored shared = score(model, lora, tokens, attention, true);
                String what = c[0] + " " + c[1];
                assertClose(what + " hidden states", whole.hidden, shared.hidden, 1e-5);
                assertClose(what + " adapter gradient", whole.gradient, shared.gradient, 1e-4);
            }
        }
    }

    @Test
    void aPrefixTheRowsDoNotShareIsRefused() {
        int[][] tokens = {{1, 2, 3, 4}, {1, 2, 9, 4}};
        int[][] attention = {{1, 1, 1, 1}, {1, 1, 1, 1}};
        assertEquals(2, SharedPrefixInputs.commonPrefix(tokens, attention));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharedPrefixInputs.of(tokens, attention, 3));
        assertTrue(e.getMessage().contains("do not share a prefix of 3"), e.getMessage());
    }

    private record Scored(float[] hidden, float[] gradient) {
    }

    /** Hidden states of positions PREFIX.. and the gradient of a fixed weighted sum of them, with or without sharing. */
    private static Scored score(Transformer model, LoraAdapter lora, int[][] tokens, int[][] attention, boolean share) {
        try (NDManager scope = root.newSubManager();
             GradientCollector collector = Engine.getInstance().newGradientCollector()) {
            NDArray hidden = share
                    ? model.hiddenAfterSharedPrefix(SharedPrefixInputs.of(tokens, attention, PREFIX), scope, lora, true)
                    : model.hidden(StepInputs.scoring(tokens, attention), scope, null, lora, true, false)
                    .get(new NDIndex(":, {}:, :", PREFIX));
            // padding positions are never read: left out of the comparison and of the loss
            NDArray real = scope.create(realMask(attention), new ai.djl.ndarray.types.Shape(tokens.length, tokens[0].length - PREFIX, 1));
            NDArray kept = hidden.mul(real);
            java.util.Random random = new java.util.Random(7); // the same loss for both scorings
            float[] w = new float[Math.toIntExact(kept.size())];
            for (int i = 0; i < w.length; i++) {
                w[i] = (float) random.nextGaussian();
            }
            collector.backward(kept.mul(scope.create(w, kept.getShape())).sum());
            List<Float> g = new ArrayList<>();
            for (NDArray p : lora.parameters()) {
                try (NDArray grad = p.getGradient()) {
                    for (float v : grad.toFloatArray()) {
                        g.add(v);
                    }
                    grad.set(new NDIndex("..."), 0f);
                }
            }
            float[] gradient = new float[g.size()];
            for (int i = 0; i < gradient.length; i++) {
                gradient[i] = g.get(i);
            }
            return new Scored(kept.toFloatArray(), gradient);
        }
    }

    private static float[] realMask(int[][] attention) {
        int s = attention[0].length - PREFIX;
        float[] m = new float[attention.length * s];
        for (int r = 0; r < attention.length; r++) {
            for (int i = 0; i < s; i++) {
                m[r * s + i] = attention[r][PREFIX + i] == 0 ? 0f : 1f;
            }
        }
        return m;
    }

    private static void assertClose(String what, float[] expected, float[] actual, double relative) {
        assertEquals(expected.length, actual.length, what);
        double scale = 0;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(scale > 0, what + " is all zero");
        assertTrue(worst <= relative * scale, what + ": off by " + worst + " at scale " + scale);
    }
}
