package dev.toolcoach.model.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.reference.ReferenceDecoder;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every family's production forward (DJL, f32) against the plain float64 reference that follows Transformers'
 * modeling code, on tiny random Hugging Face folders written by the reference's {@link TinyHfFolders}: the logits of
 * a whole-prompt forward, and of a prefill followed by cached one-token decode steps (alone and batched with other
 * rows in other KV slots), agree to 1e-4 of the logits' scale.
 */
class FamilyReferenceTest {
    private static final int LEN = TinyHfFolders.LONG_SEQUENCE;
    private static final double TOLERANCE = 1e-4;
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

    /** A fixed token sequence below {@code vocab}, different per {@code salt}. */
    private static int[] tokens(int len, int vocab, int salt) {
        int[] t = new int[len];
        for (int i = 0; i < len; i++) {
            t[i] = (7 + salt + 13 * i + i * i) % vocab;
        }
        return t;
    }

    /** A loaded folder: the production transformer and the reference on the same files. */
    private record Pair(String name, Transformer model, ReferenceDecoder reference) implements AutoCloseable {
        @Override
        public void close() {
            model.close();
        }
    }

    private Pair load(Family family, Rope rope, ConfigStyle style) throws Exception {
        String name = family + "-" + rope + "-" + style;
        Path dir = TinyHfFolders.write(tmp.resolve(name), family, rope, style, 11L);
        HfModelFolder.Contents c = HfModelFolder.read(dir);
        return new Pair(name, Transformer.create(c.config(), c.tensors(), root), ReferenceDecoder.load(dir));
    }

    private static void assertClose(String what, double[] reference, float[] actual, int offset) {
        double scale = Math.max(1, Arrays.stream(reference).map(Math::abs).max().orElseThrow());
        double worst = 0;
        for (int v = 0; v < reference.length; v++) {
            worst = Math.max(worst, Math.abs(reference[v] - actual[offset + v]));
        }
        assertTrue(worst <= TOLERANCE * scale, what + ": max |reference - production| = " + worst + " (logit scale " + scale + ")");
    }

    /**
     * A row decoded alone and in a batch agrees to 1e-5 of the logits' scale (at least 1), not bit for bit: PyTorch's
     * float32 kernels pick their blocking and vector width by the batch's shape and the CPU (an AVX-512 machine showed
     * 1.3e-5 absolute on a logit of -0.99, the whole vector's scale being larger), so the same row is summed in another
     * order. Each logit here is a few hundred float32 products deep through four layers: reordering moves it by a
     * few ulps of its inputs' scale, about 1e-6 relative, while a row that saw another row's keys moves by 1e-1.
     */
    private static void assertBatchInvariant(String what, float[] alone, float[] batched) {
        double scale = 1;
        for (float v : alone) {
            scale = Math.max(scale, Math.abs(v));
        }
        double worst = 0;
        for (int i = 0; i < alone.length; i++) {
            worst = Math.max(worst, Math.abs(alone[i] - batched[i]));
        }
        assertTrue(worst <= 1e-5 * scale, what + ": a row alone and in a batch differ by " + worst + " (logit scale " + scale + ")");
    }

    /** Whole-prompt forward without a cache (as training scores sequences) against the reference, every position. */
    private static void fullForward(Pair p, int len) {
        int[] t = tokens(len, p.model().config().vocabSize(), 0);
        double[][] ref = p.reference().logits(t);
        int[] mask = new int[len];
        Arrays.fill(mask, 1);
        try (NDManager scope = root.newSubManager()) {
            float[] logits = p.model().forward(StepInputs.scoring(new int[][] {t}, new int[][] {mask}), scope, null, null, false, false)
                    .toFloatArray();
            int vocab = p.model().config().vocabSize();
            for (int i = 0; i < len; i++) {
                assertClose(p.name() + " full forward, position " + i, ref[i], logits, i * vocab);
            }
        }
    }

    /**
     * Rows of different prompt lengths, each in its own KV slot, prefilled together in one forward, then decoded one
     * token per step until every row's sequence is complete (row r's sequence is {@code len - (longest - its prompt)}
     * tokens long); each row's logits at every step against the reference's forward over that row's tokens so far.
     */
    private static void cachedDecode(Pair p, int len, int... promptLengths) {
        int vocab = p.model().config().vocabSize();
        int rows = promptLengths.length;
        int longest = Arrays.stream(promptLengths).max().orElseThrow();
        int[][] seqs = new int[rows][];
        for (int r = 0; r < rows; r++) {
            seqs[r] = tokens(len - (longest - promptLengths[r]), vocab, 3 * r);
        }
        float[][] logits = slotDecode(p.model(), seqs, promptLengths);
        for (int r = 0; r < rows; r++) {
            double[][] whole = p.reference().logits(seqs[r]);
            for (int seen = promptLengths[r]; seen <= seqs[r].length; seen++) {
                // a causal model's prefix logits are rows of the whole forward, unless the rope depends on the length
                double[][] ref = p.model().config().rope().lengthDependent()
                        ? p.reference().logits(Arrays.copyOf(seqs[r], seen)) : whole;
                assertClose(p.name() + " cached decode, row " + r + " of " + rows + ", " + seen + " tokens", ref[seen - 1],
                        logits[r], (seen - promptLengths[r]) * vocab);
            }
        }
    }

    /**
     * Logits of every step of each row: the rows' prompts ({@code promptLengths[r]} tokens of {@code seqs[r]}) prefilled
     * into slots 0..rows-1 in one forward, then one token per step, every row in every step, until the longest row is
     * complete (a row already complete rides along idle).
     */
    static float[][] slotDecode(Transformer model, int[][] seqs, int... promptLengths) {
        int rows = seqs.length;
        int vocab = model.config().vocabSize();
        int steps = 0;
        for (int r = 0; r < rows; r++) {
            steps = Math.max(steps, seqs[r].length - promptLengths[r]);
        }
        float[][] out = new float[rows][(steps + 1) * vocab];
        int[] slots = new int[rows];
        int[] starts = new int[rows];
        int[][] step = new int[rows][];
        for (int r = 0; r < rows; r++) {
            slots[r] = r;
            step[r] = Arrays.copyOf(seqs[r], promptLengths[r]);
        }
        try (KvSlots cache = new KvSlots(model.config(), root, rows, model.dtype())) {
            for (int s = 0; s <= steps; s++) {
                try (NDManager scope = root.newSubManager()) {
                    float[] logits = model.forward(StepInputs.slotted(step, slots, starts), scope, cache, null, false, true).toFloatArray();
                    for (int r = 0; r < rows; r++) {
                        if (step[r].length > 0) {
                            System.arraycopy(logits, r * vocab, out[r], s * vocab, vocab);
                        }
                    }
                }
                for (int r = 0; r < rows; r++) {
                    starts[r] += step[r].length;
                    step[r] = starts[r] < seqs[r].length ? new int[] {seqs[r][starts[r]]} : new int[0];
                }
            }
        }
        return out;
    }

    @Test
    void everyFamilyMatchesTheReference() throws Exception {
        for (Family family : Family.values()) {
            for (ConfigStyle style : ConfigStyle.values()) {
                Rope rope = family == Family.PHI3 ? Rope.LONGROPE : Rope.DEFAULT;
                try (Pair p = load(family, rope, style)) {
                    fullForward(p, LEN);
                    if (rope == Rope.LONGROPE) {
                        // both prompts past original_max_position_embeddings (16): long factors throughout, as in the
                        // reference's forward of every prefix; shorter prompts are checked on their own below
                        cachedDecode(p, LEN, 20, 17);
                    } else {
                        cachedDecode(p, LEN, 9, 4);
                    }
                }
            }
        }
    }

    @Test
    void everyRopeTypeMatchesTheReference() throws Exception {
        List<Object[]> cases = new ArrayList<>();
        for (Rope rope : new Rope[] {Rope.LINEAR, Rope.DYNAMIC, Rope.LLAMA3, Rope.YARN, Rope.LONGROPE}) {
            cases.add(new Object[] {Family.LLAMA, rope});
        }
        cases.add(new Object[] {Family.QWEN2, Rope.YARN});
        cases.add(new Object[] {Family.QWEN3, Rope.LLAMA3});
        cases.add(new Object[] {Family.MISTRAL, Rope.LINEAR});
        for (Object[] c : cases) {
            Rope rope = (Rope) c[1];
            try (Pair p = load((Family) c[0], rope, ConfigStyle.V5)) {
                // dynamic: the folder's max_position_embeddings is 16, so 24 tokens run on stretched frequencies
                fullForward(p, LEN);
                switch (rope) {
                    // below max_position_embeddings dynamic is the default rope, so a decode there matches any prefix
                    case DYNAMIC -> cachedDecode(p, 16, 6, 3);
                    case LONGROPE -> cachedDecode(p, LEN, 18);
                    default -> cachedDecode(p, LEN, 7, 2);
                }
            }
        }
    }

    @Test
    void lengthDependentRopeDecodesARowAloneAsInABatch() throws Exception {
        // longrope past original_max_position_embeddings (16) and dynamic past max_position_embeddings (16), where the
        // frequencies change from step to step: a row's logits must not depend on the other rows of its batch
        for (Object[] c : new Object[][] {{Family.PHI3, Rope.LONGROPE}, {Family.LLAMA, Rope.DYNAMIC}}) {
            try (Pair p = load((Family) c[0], (Rope) c[1], ConfigStyle.V4)) {
                int vocab = p.model().config().vocabSize();
                int[] a = tokens(LEN, vocab, 1);
                int[] b = tokens(LEN, vocab, 2);
                float[] alone = slotDecode(p.model(), new int[][] {a}, 12)[0];
                float[][] batched = slotDecode(p.model(), new int[][] {b, a}, 12, 12);
                assertBatchInvariant(p.name(), alone, batched[1]);
                if (c[1] == Rope.LONGROPE) {
                    // a 20-token prompt (long factors throughout) then steps equal the whole forward of every prefix;
                    // dynamic frequencies change at every step, so there only Transformers' own decode would agree
                    cachedDecode(p, LEN, 20);
                }
            }
        }
    }

    @Test
    void shortPromptsStayOnShortFactorsUpToTheOriginalLength() throws Exception {
        try (Pair p = load(Family.PHI3, Rope.LONGROPE, ConfigStyle.V4)) {
            fullForward(p, 16);
            cachedDecode(p, 16, 5, 11);
        }
    }
}
