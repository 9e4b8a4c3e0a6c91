package dev.toolcoach.brain.scratch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScratchRecipeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON form is the flat one that {@code --recipe} files, {@code POST /jobs} and run folders' config.json hold. */
    @Test
    void jsonIsFlatAndReadsBack() throws Exception {
        ScratchRecipe recipe = ScratchRecipe.defaults();
        JsonNode json = JSON.valueToTree(recipe);
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("shape", "maxMerges", "minMergeCount", "warmupTraces", "warmupEpochs", "warmupBatch", "warmupLr",
                "warmupHeldOut", "warmupPatience", "groupSize", "groupsPerStep", "grpoSteps", "temperature", "grpoLr", "callWeight", "lora", "oversampling", "maxTurns",
                "maxTotalTokens", "maxNewTokens", "engineBatch", "testExamples", "passAtKQueries"), fields);
        assertEquals(JSON.readTree("""
                {"dim":128,"hiddenDim":384,"layers":4,"heads":4,"kvHeads":4,"maxSeqLen":512}"""), json.get("shape"));
        assertEquals(800, json.get("warmupTraces").asInt());
        assertEquals(0.003, json.get("warmupLr").asDouble());
        assertEquals(0.001, json.get("grpoLr").asDouble());
        assertEquals(64, json.get("engineBatch").asInt());
        assertEquals(recipe, JSON.treeToValue(json, ScratchRecipe.class));
        assertEquals(recipe, JSON.readValue(JSON.writeValueAsString(recipe), ScratchRecipe.class));
    }

    @Test
    void aRecipeWrittenBeforeWarmupValidationReadsAsWithoutItAndABadPatienceIsNamed() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
        json.remove("warmupHeldOut");
        json.remove("warmupPatience");
        assertEquals(new dev.toolcoach.brain.distill.LearnerSft.Validation(0, 0),
                JSON.treeToValue(json, ScratchRecipe.class).warmup().validation());
        json.put("warmupPatience", 2);
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> JSON.treeToValue(json, ScratchRecipe.class));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("a patience needs held-out demonstrations"), e.getMessage());
    }

    @Test
    void aRecipeWrittenBeforeDynamicSamplingReadsAsWithoutIt() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
        json.remove("oversampling");
        assertEquals(1, JSON.treeToValue(json, ScratchRecipe.class).grpo().oversampling());
    }
}
