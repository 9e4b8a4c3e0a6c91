package dev.toolcoach.learn.optim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LrScheduleTest {
    @Test
    void warmupThenCosineToTheFloor() {
        LrSchedule s = new LrSchedule(1.0, 4, 14, LrSchedule.Decay.COSINE, 0.1);
        assertEquals(0.25, s.at(0), 1e-12);
        assertEquals(1.0, s.at(3), 1e-12);
        assertEquals(1.0, s.at(4), 1e-12);
        assertEquals(0.1 + 0.9 * 0.5, s.at(9), 1e-12); // half way: cos(pi/2) = 0
        assertEquals(0.1, s.at(14), 1e-12);
        assertEquals(0.1, s.at(100), 1e-12);
    }

    @Test
    void linearAndConstant() {
        LrSchedule s = new LrSchedule(2.0, 0, 10, LrSchedule.Decay.LINEAR, 0.0);
        assertEquals(2.0, s.at(0), 1e-12);
        assertEquals(1.0, s.at(5), 1e-12);
        assertEquals(0.0, s.at(10), 1e-12);
        assertEquals(0.3, LrSchedule.constant(0.3).at(1000), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new LrSchedule(-1, 0, 1, LrSchedule.Decay.LINEAR, 0));
    }
}
