package dev.toolcoach.brain.taskjob;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EvalRecordTest {

    /** Against the closed form (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), worked by hand for 0/10 and 7/10. */
    @Test
    void theAccuracyIntervalIsWilsons() {
        assertInterval(0.0, 0.2775, EvalRecord.wilson(0, 10));
        assertInterval(0.3968, 0.8922, EvalRecord.wilson(7, 10));
        assertInterval(0.0, 1.0, EvalRecord.wilson(0, 0));
        List<Double> large = EvalRecord.wilson(210, 300);
        assertEquals(0.70, (large.get(0) + large.get(1)) / 2, 0.01);
        assertEquals(0.052, (large.get(1) - large.get(0)) / 2, 0.002, "300 questions: about ±5 points at 70 %");
    }

    private static void assertInterval(double low, double high, List<Double> actual) {
        assertEquals(low, actual.get(0), 1e-4);
        assertEquals(high, actual.get(1), 1e-4);
    }
}
