package dev.toolcoach.brain.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RewardCurveTest {

    @Test
    void theMovingMeanTrailsOverTheWindowAndLeavesOutStepsWithoutAFigure() {
        assertEquals(List.of(1.0, 1.5, 2.5, 3.5), RewardCurve.movingMean(List.of(1.0, 2.0, 3.0, 4.0), 2));
        assertEquals(List.of(1.0, 1.0, 3.0), RewardCurve.movingMean(List.of(1.0, Double.NaN, 3.0), 2));
    }
}
