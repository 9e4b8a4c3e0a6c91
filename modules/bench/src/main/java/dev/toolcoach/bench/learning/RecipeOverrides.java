package dev.toolcoach.bench.learning;

import dev.toolcoach.brain.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.model.lora.LoraConfig;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Set;

/**
 * Recipe values from system properties, for experiments: {@code -Drecipe.<component>=value}, e.g.
 * {@code -Drecipe.warmupTraces=64}, {@code -Drecipe.shape=128,384,4,4,4,1024} (dim, hidden, layers, heads,
 * kv heads, context) or {@code -Drecipe.lora=16,32,q_proj+v_proj} (rank, alpha, targets).
 */
final class RecipeOverrides {

    private RecipeOverrides() {
    }

    static ScratchRecipe apply(ScratchRecipe recipe) {
        RecordComponent[] components = ScratchRecipe.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                String override = System.getProperty("recipe." + components[i].getName());
                values[i] = override == null ? components[i].getAccessor().invoke(recipe) : parse(types[i], override);
            }
            return ScratchRecipe.class.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild the recipe", e);
        }
    }

    private static Object parse(Class<?> type, String text) {
        String[] parts = text.split(",");
        if (type == int.class) return Integer.parseInt(text);
        if (type == double.class) return Double.parseDouble(text);
        if (type == float.class) return Float.parseFloat(text);
        if (type == ScratchModel.Shape.class) {
            int[] n = Arrays.stream(parts).mapToInt(Integer::parseInt).toArray();
            return new ScratchModel.Shape(n[0], n[1], n[2], n[3], n[4], n[5]);
        }
        if (type == LoraConfig.class) {
            return new LoraConfig(Integer.parseInt(parts[0]), Float.parseFloat(parts[1]), 0f, Set.of(parts[2].split("\\+")));
        }
        throw new IllegalArgumentException("no override for " + type);
    }
}
