package dev.toolcoach.brain;

import dev.toolcoach.learn.core.LearnerConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingConfigTest {

    @Test
    void theMicroBatchIsTheLearnersUnlessSetAndSurvivesOtherChanges() {
        TrainingConfig defaults = TrainingConfig.defaults();
        assertEquals(LearnerConfig.defaults(2e-3).microBatchRows(), defaults.optimisation().microBatchRows());
        TrainingConfig one = defaults.withMicroBatchRows(1).withOptimisation(defaults.optimisation().lora(), 1e-3, 0.01);
        assertEquals(1, one.optimisation().microBatchRows(), "a new learning rate keeps the micro-batch");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> defaults.withMicroBatchRows(0));
        assertTrue(e.getMessage().contains("micro-batch rows must be at least 1, was 0"), e.getMessage());
    }
}
