package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.JsonMappingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values no job can run with are refused at the door, naming the field, before anything is allocated: LoRA settings
 * that are not numbers, a rank larger than the matrices it adapts, a model shape no model has or this machine cannot
 * train, counts whose product overflows, rollouts longer than the model's context.
 */
class JobSpecBoundsTest {

    @Test
    void valuesNoJobCanRunWithAreOneLineNamingThem(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        assertRefused(dir, data, "{\"lora\": {\"r\": 4, \"alpha\": 8, \"dropout\": \"NaN\", \"targets\": [\"q_proj\"]}}",
                "LoRA dropout must be in [0, 1), got NaN");
        assertRefused(dir, data, "{\"lora\": {\"r\": 4, \"alpha\": \"Infinity\", \"dropout\": 0, \"targets\": [\"q_proj\"]}}",
                "LoRA alpha must be a positive finite number, got Infinity");
        assertRefused(dir, data, "{\"shape\": {\"dim\": 30, \"hiddenDim\": 64, \"layers\": 2, \"heads\": 4, \"kvHeads\": 2, \"maxSeqLen\": 512}}",
                "dim 30 is not a whole number of 4 heads");
        assertRefused(dir, data, "{\"shape\": {\"dim\": 65536, \"hiddenDim\": 262144, \"layers\": 512, \"heads\": 64, \"kvHeads\": 8, "
                + "\"maxSeqLen\": 512}}", "GiB, this machine has ");
        assertRefused(dir, data, "{\"groupSize\": 65536, \"groupsPerStep\": 65536}", "groupSize x groupsPerStep is too large: 65536 x 65536");
        assertRefused(dir, data, "{\"lora\": {\"r\": 4096, \"alpha\": 8, \"dropout\": 0, \"targets\": [\"q_proj\"]}}",
                "LoRA rank 4096 exceeds q_proj's 128 x 128 matrix: at most 128");
        assertRefused(dir, data, "{\"maxTotalTokens\": 4096}", "maxTotalTokens 4096 exceeds the model's context of 512 positions");
    }

    private static void assertRefused(Path dir, Path data, String recipe, String reason) {
        String body = "{\"task\": \"finance\", \"recipe\": " + recipe + "}";
        Exception e = assertThrows(Exception.class, () -> TaskTrainingJob.validate(
                TrainingJobSpec.fromNetwork(body, dir.resolve("runs"), data, dir.resolve("models"))));
        String message = e instanceof JsonMappingException j ? j.getOriginalMessage() : e.getMessage();
        assertTrue(e instanceof IllegalArgumentException || e instanceof JsonMappingException, e.toString());
        assertTrue(message.contains(reason) && !message.contains("\n"), recipe + ": " + message);
        assertEquals(-1, message.indexOf("Exception"), message);
    }
}
