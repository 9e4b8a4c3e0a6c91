package dev.toolcoach.brain;

import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.model.lora.LoraConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingConfigTest {

    @Test
    void theMicroBatchIsTheLearnersUnlessSetAndSurvivesOtherChanges() {
        TrainingConfig defaults = TrainingConfig.defaults();
        assertEquals(LearnerConfig.defaults(2e-3).microBatchRows(), defaults.optimisation().microBatchRows());
        TrainingConfig one = defaults.toBuilder().microBatchRows(1).build().toBuilder().learningRate(1e-3).klBeta(0.01).build();
        assertEquals(1, one.optimisation().microBatchRows(), "a new learning rate keeps the micro-batch");
        assertEquals(1e-3, one.optimisation().learningRate());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> defaults.toBuilder().microBatchRows(0).build());
        assertTrue(e.getMessage().contains("micro-batch rows must be at least 1, was 0"), e.getMessage());
    }

    @Test
    void toBuilderCarriesEverySetting() {
        TrainingConfig changed = TrainingConfig.builder().algorithm(Algorithm.SFT).groupSize(3).groupsPerStep(5).maxPolicyLag(0)
                .rolloutTimeout(Duration.ofSeconds(7)).oversampling(2).athletes(9).rollouts(new RolloutSettings(0.5, 10, 2, 300))
                .lora(new LoraConfig(2, 4f, 0f, Set.of("q_proj"))).learningRate(1e-4).klBeta(0.02).sftRewardThreshold(0.5)
                .microBatchRows(3).checkpointEvery(4).seed(17).limits(new TrainingConfig.Limits(Duration.ofHours(2), Duration.ofMinutes(3), 1))
                .build();
        assertEquals(changed, changed.toBuilder().build());
        assertEquals(TrainingConfig.defaults(), TrainingConfig.defaults().toBuilder().build());
        assertNotEquals(TrainingConfig.defaults(), changed);
    }
}
