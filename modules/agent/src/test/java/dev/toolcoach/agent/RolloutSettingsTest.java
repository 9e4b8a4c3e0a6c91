package dev.toolcoach.agent;

import dev.toolcoach.lm.SamplingParams;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RolloutSettingsTest {
    @Test
    void theAgentsShareTheLimitsAndDifferOnlyInSampling() {
        RolloutSettings settings = new RolloutSettings(0.7, 64, 3, 512);
        AgentConfig sampling = settings.samplingAgent(ActionFormat.TOOL_N1, 9);
        assertEquals(new AgentConfig(ActionFormat.TOOL_N1, SamplingParams.atTemperature(0.7f, 64, 9), 3, 512,
                AgentConfig.TOOL_TIMEOUT, AgentConfig.TOOL_OUTPUT_CAP), sampling);
        assertEquals(sampling.withSampling(SamplingParams.greedy(64)), settings.greedyAgent(ActionFormat.TOOL_N1));
    }

    @Test
    void badNumbersAreRefusedWithTheirName() {
        assertEquals("max new tokens must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new RolloutSettings(1, 0, 1, 1)).getMessage());
        assertEquals("max turns must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new RolloutSettings(1, 1, 0, 1)).getMessage());
        assertEquals("max total tokens must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new RolloutSettings(1, 1, 1, 0)).getMessage());
        assertEquals("temperature must be 0 or more, was NaN",
                assertThrows(IllegalArgumentException.class, () -> new RolloutSettings(Double.NaN, 1, 1, 1)).getMessage());
    }
}
