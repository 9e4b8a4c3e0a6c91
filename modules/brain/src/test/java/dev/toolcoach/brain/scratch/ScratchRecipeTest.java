package dev.toolcoach.brain.scratch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ActionFormat;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScratchRecipeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON form is the flat one that {@code --recipe} files, {@code POST /jobs} and run folders' config.json hold. */
    @Test
    void jsonIsFlatAndReadsBack() throws Exception {
        ScratchRecipe recipe = ScratchRecipe.defaults();
        JsonNode json = JSON.valueToTree(recipe);
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("shape", "maxMerges", "minMergeCount", "vocabularyExamples", "warmupTraces", "warmupEpochs", "warmupBatch", "warmupLr",
                "warmupHeldOut", "warmupPatience", "warmupTargetLoss", "warmupTeacherErrors", "groupSize", "groupsPerStep", "grpoSteps", "temperature", "grpoLr", "callWeight", "lora", "oversampling", "entropyBonus", "maxTurns",
                "maxTotalTokens", "maxNewTokens", "engineBatch", "actionFormat", "testExamples", "passAtKQueries",
                "heldOutEvery", "heldOutExamples"), fields);
        assertEquals(JSON.readTree("""
                {"dim":128,"hiddenDim":384,"layers":4,"heads":4,"kvHeads":4,"maxSeqLen":512}"""), json.get("shape"));
        assertEquals(800, json.get("warmupTraces").asInt());
        assertEquals(0.003, json.get("warmupLr").asDouble());
        assertEquals(0.001, json.get("grpoLr").asDouble());
        assertEquals(64, json.get("engineBatch").asInt());
        assertEquals("tool-n1-compact", json.get("actionFormat").asText());
        assertEquals(recipe, JSON.treeToValue(json, ScratchRecipe.class));
        assertEquals(recipe, JSON.readValue(JSON.writeValueAsString(recipe), ScratchRecipe.class));
    }

    @Test
    void aRecipeWrittenBeforeWarmupValidationReadsAsWithoutItAndABadPatienceIsNamed() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
        json.remove("warmupHeldOut");
        json.remove("warmupPatience");
        json.remove("warmupTargetLoss");
        json.remove("warmupTeacherErrors");
        assertEquals(new dev.toolcoach.brain.distill.LearnerSft.Validation(0, 0),
                JSON.treeToValue(json, ScratchRecipe.class).warmup().validation());
        json.put("warmupPatience", 2);
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> JSON.treeToValue(json, ScratchRecipe.class));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("a patience or a target loss needs held-out demonstrations"), e.getMessage());
    }

    @Test
    void aRecipeWrittenBeforeHeldOutEvaluationsWhileTrainingReadsAsWithoutThemAndAUsersRecipeGetsThem() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
        json.remove("heldOutEvery");
        json.remove("heldOutExamples");
        assertEquals(new ScratchRecipe.Evaluation(300, 64, 0, 64), JSON.treeToValue(json, ScratchRecipe.class).evaluation());
        assertEquals(new ScratchRecipe.Evaluation(300, 64, 10, 64),
                ScratchRecipe.overDefaults(JSON.readTree("{\"grpoSteps\": 20}")).evaluation());
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> ScratchRecipe.overDefaults(JSON.readTree("{\"heldOutEvery\": -1}")));
        assertTrue(e.getMessage().contains("heldOutEvery >= 0"), e.getMessage());
    }

    @Test
    void aRecipeWrittenBeforeDynamicSamplingReadsAsWithoutIt() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
        json.remove("oversampling");
        assertEquals(1, JSON.treeToValue(json, ScratchRecipe.class).grpo().oversampling());
    }

    @Test
    void theActionFormatIsAFieldAndARecipeWrittenBeforeItActsInToolN1Compact() throws Exception {
        ScratchRecipe codeAct = ScratchRecipe.defaults().withActionFormat(ActionFormat.CODE_ACT);
        JsonNode json = JSON.valueToTree(codeAct);
        assertEquals("code-act", json.get("actionFormat").asText());
        ScratchRecipe read = JSON.treeToValue(json, ScratchRecipe.class);
        assertEquals(codeAct, read);
        assertEquals(ActionFormat.CODE_ACT, read.greedyAgent().actionFormat());
        assertEquals(ActionFormat.CODE_ACT, read.samplingAgent(3).actionFormat());

        ObjectNode older = JSON.valueToTree(ScratchRecipe.defaults());
        older.remove("actionFormat");
        assertEquals(ActionFormat.TOOL_N1_COMPACT, JSON.treeToValue(older, ScratchRecipe.class).rollouts().actionFormat());
    }

    @Test
    void aBadActionFormatIsRefusedNamingTheField() {
        for (String bad : List.of("hermes", "python", "")) {
            ObjectNode json = JSON.valueToTree(ScratchRecipe.defaults());
            json.put("actionFormat", bad);
            ValueInstantiationException e = assertThrows(ValueInstantiationException.class, () -> JSON.treeToValue(json, ScratchRecipe.class));
            assertEquals("recipe field actionFormat: unknown action format '" + bad + "'; a model from scratch acts in "
                    + "tool-n1-compact, tool-n1, code-act", e.getCause().getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ScratchRecipe.defaults().withActionFormat(ActionFormat.HERMES),
                "a native format needs its family's template, which a model from scratch does not have");
    }

    /** A user's recipe names what it changes; the rest is the default recipe, not zero. */
    @Test
    void aUsersRecipeNamesOnlyTheFieldsItChanges() throws Exception {
        ScratchRecipe recipe = ScratchRecipe.overDefaults(JSON.readTree("""
                {"grpoSteps": 120, "warmupTargetLoss": 0.02}"""));
        assertEquals(ScratchRecipe.defaults().withGrpoSteps(120).grpo(), recipe.grpo());
        assertEquals(0.02, recipe.warmup().targetLoss());
        assertEquals(ScratchRecipe.defaults().warmup().heldOut(), recipe.warmup().heldOut());
        assertEquals(ScratchRecipe.defaults().shape(), recipe.shape());
        assertEquals(ScratchRecipe.defaults(), ScratchRecipe.overDefaults(JSON.readTree("{}")));

        Exception notAnObject = assertThrows(com.fasterxml.jackson.core.JsonProcessingException.class,
                () -> ScratchRecipe.overDefaults(JSON.readTree("[1]")));
        assertTrue(notAnObject.getMessage().startsWith("a recipe must be a JSON object"), notAnObject.getMessage());
        Exception unknown = assertThrows(com.fasterxml.jackson.core.JsonProcessingException.class,
                () -> ScratchRecipe.overDefaults(JSON.readTree("{\"grpoStep\": 120}")));
        assertEquals("grpoStep", ((com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException) unknown).getPropertyName());
        Exception bad = assertThrows(ValueInstantiationException.class, () -> ScratchRecipe.overDefaults(JSON.readTree("""
                {"grpoSteps": -1}""")));
        assertEquals("recipe field grpoSteps must be at least 0, was -1", bad.getCause().getMessage());
    }
}
