package dev.toolcoach.learn.batch;

import dev.toolcoach.trace.TokenRecord;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingSequenceTest {
    // prompt 10 11, generated 20 21, tool observation 30, generated 22
    static final TokenRecord RECORD = new TokenRecord(2, new int[] {10, 11, 20, 21, 30, 22},
            new int[] {0, 0, 1, 1, 0, 1}, new float[] {0, 0, -0.1f, -0.2f, 0, -0.3f}, new int[] {-1, -1, 4, 4, -1, 5});

    @Test
    void shiftsByOneAndMasksEverythingTheModelDidNotGenerate() {
        TrainingSequence s = TrainingSequence.from("r", RECORD);
        assertArrayEquals(new int[] {10, 11, 20, 21, 30}, s.inputIds());
        assertArrayEquals(new int[] {11, 20, 21, 30, 22}, s.targets());
        assertArrayEquals(new float[] {0, 1, 1, 0, 1}, s.mask());
        assertArrayEquals(new float[] {0, -0.1f, -0.2f, 0, -0.3f}, s.behaviourLogprobs());
        assertArrayEquals(new int[] {-1, 4, 4, -1, 5}, s.policyVersions());
        assertEquals(3, s.generatedCount());
    }

    @Test
    void paddingCarriesMaskZeroAndStalenessCountsGeneratedTokensOnly() {
        TrainingSequence s = TrainingSequence.from("r", RECORD);
        TrainingSequence shorter = TrainingSequence.from("q", new TokenRecord(1, new int[] {1, 2}, new int[] {0, 1},
                new float[] {0, -1f}, new int[] {-1, 6}));
        PaddedBatch b = PaddedBatch.of(List.of(new BatchRow(s, 1, 1), new BatchRow(shorter, -1, 1)));
        assertEquals(5, b.length());
        assertArrayEquals(new float[] {1, 0, 0, 0, 0}, Arrays.copyOfRange(b.mask(), 5, 10));
        assertArrayEquals(new int[] {1, 0, 0, 0, 0}, b.attentionRows()[1]);
        assertEquals(4, b.generatedTokens());
        assertEquals(((7 - 4) * 2 + (7 - 5) + (7 - 6)) / 4.0, b.meanStaleness(7), 1e-12);
    }

    @Test
    void refusesRecordsThatCannotBeTrainedOn() {
        var generatedFirst = new TokenRecord(0, new int[] {1, 2}, new int[] {1, 1}, new float[] {-1, -1}, new int[] {0, 0});
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingSequence.from("x", generatedFirst))
                .getMessage().contains("rollout x marks token 0"));
        var nothingGenerated = new TokenRecord(2, new int[] {1, 2}, new int[] {0, 0}, new float[2], new int[] {-1, -1});
        assertThrows(IllegalArgumentException.class, () -> TrainingSequence.from("y", nothingGenerated));
        var positiveLogprob = new TokenRecord(1, new int[] {1, 2}, new int[] {0, 1}, new float[] {0, 0.5f}, new int[] {-1, 0});
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingSequence.from("z", positiveLogprob))
                .getMessage().contains("token 1"));
    }
}
