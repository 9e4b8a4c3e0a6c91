package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.ScoredGroup;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreferencePairsTest {
    final ScoredGroup group = Fixtures.group("p", new int[] {1, 1, 1, 1}, 0.2, 1.0, 0.2, 0.6);

    @Test
    void bestVersusWorstTakesTheExtremes() {
        List<PreferencePairs.Pair> pairs = PreferencePairs.of(group, DpoConfig.PairMode.BEST_VS_WORST, 0);
        assertEquals(1, pairs.size());
        assertEquals("p-1", pairs.get(0).chosen().trace().rolloutId());
        assertEquals(0.2, pairs.get(0).rejected().reward());
    }

    @Test
    void allPairsNeverPairsTiesAndHonoursTheMargin() {
        List<PreferencePairs.Pair> pairs = PreferencePairs.of(group, DpoConfig.PairMode.ALL_PAIRS, 0);
        assertEquals(5, pairs.size()); // 6 pairs of 4, minus the tie 0.2/0.2
        assertTrue(pairs.stream().allMatch(p -> p.chosen().reward() > p.rejected().reward()));
        assertEquals(2, PreferencePairs.of(group, DpoConfig.PairMode.ALL_PAIRS, 0.5).size()); // only 1.0 against each 0.2
    }

    @Test
    void aFlatGroupYieldsNoPair() {
        assertTrue(PreferencePairs.of(Fixtures.group("f", new int[] {1, 1}, 0.5, 0.5), DpoConfig.PairMode.BEST_VS_WORST, 0).isEmpty());
        assertThrows(IllegalArgumentException.class,
                () -> new PreferencePairs.Pair(group.traces().get(0), group.traces().get(2)));
    }
}
