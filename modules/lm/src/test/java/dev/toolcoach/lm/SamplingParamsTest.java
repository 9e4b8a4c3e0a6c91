package dev.toolcoach.lm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sampling a bad value never reaches an engine: NaN passes every comparison, so it is refused by name. */
class SamplingParamsTest {

    @Test
    void notFiniteOrOutOfRangeValuesAreRefusedNamingTheParameter() {
        for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.5f}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SamplingParams.atTemperature(bad, 8, 1L));
            assertTrue(e.getMessage().startsWith("temperature must be"), e.getMessage());
        }
        for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, 0f, 1.5f}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SamplingParams(1f, 0, bad, 8, 1L));
            assertTrue(e.getMessage().startsWith("topP must be"), e.getMessage());
        }
    }

    @Test
    void theEdgesOfEachRangeAreTaken() {
        SamplingParams.atTemperature(0f, 1, 0L);
        SamplingParams.atTemperature(Float.MAX_VALUE, 1, 0L);
        new SamplingParams(1f, 0, Float.MIN_VALUE, 1, 0L);
    }
}
