package dev.toolcoach.brain.eval;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PassAtKTest {

    @Test
    void theEstimatorIsOneMinusTheChanceThatKDrawsWithoutReplacementAreAllWrong() {
        assertEquals(0.0, PassAtK.estimate(8, 0, 8));
        assertEquals(1.0, PassAtK.estimate(8, 1, 8), "with n = k, any right sample passes");
        assertEquals(0.2, PassAtK.estimate(10, 2, 1), 1e-12, "pass@1 is the share of right samples");
        // 1 - C(8,5)/C(10,5) = 1 - 56/252
        assertEquals(1 - 56.0 / 252, PassAtK.estimate(10, 2, 5), 1e-12);
        assertEquals(1.0, PassAtK.estimate(10, 6, 5), "fewer than k wrong samples: some right one is always drawn");
    }

    @Test
    void queriesAreAveraged() {
        PassAtK p = PassAtK.of(List.of(0, 1, 8, 4), 8, 8, 1.0);
        assertEquals(4, p.queries());
        assertEquals(0.75, p.passAtK(), 1e-12);
        assertEquals((0 + 1 + 8 + 4) / 32.0, p.passAt1(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> PassAtK.of(List.of(1), 4, 8, 1.0));
    }
}
