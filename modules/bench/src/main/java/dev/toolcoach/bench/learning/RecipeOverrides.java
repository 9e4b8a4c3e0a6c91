package dev.toolcoach.bench.learning;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.brain.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.model.lora.LoraConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Recipe values from system properties, for experiments: {@code -Drecipe.<field>=value} with the fields of the
 * recipe's JSON form, e.g. {@code -Drecipe.warmupTraces=64}, {@code -Drecipe.shape=128,384,4,4,4,1024} (dim, hidden,
 * layers, heads, kv heads, context) or {@code -Drecipe.lora=16,32,q_proj+v_proj} (rank, alpha, targets).
 */
final class RecipeOverrides {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RecipeOverrides() {
    }

    static ScratchRecipe apply(ScratchRecipe recipe) {
        ObjectNode json = JSON.valueToTree(recipe);
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        try {
            for (String field : fields) {
                String override = System.getProperty("recipe." + field);
                if (override != null) json.set(field, parse(field, override));
            }
            return JSON.treeToValue(json, ScratchRecipe.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot rebuild the recipe", e);
        }
    }

    private static JsonNode parse(String field, String text) throws JsonProcessingException {
        String[] parts = text.split(",");
        return switch (field) {
            case "shape" -> {
                int[] n = Arrays.stream(parts).mapToInt(Integer::parseInt).toArray();
                yield JSON.valueToTree(new ScratchModel.Shape(n[0], n[1], n[2], n[3], n[4], n[5]));
            }
            case "lora" -> JSON.valueToTree(new LoraConfig(Integer.parseInt(parts[0]), Float.parseFloat(parts[1]), 0f,
                    Set.of(parts[2].split("\\+"))));
            default -> JSON.readTree(text);
        };
    }
}
