package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code POST /jobs} bodies an attacker sends: each refused where it enters, naming the field. */
class JobRequestAdversarialTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aRecipeTemperatureThatIsNotAFiniteNumberIsRefusedNamingTheField() throws Exception {
        for (String bad : new String[] {"\"NaN\"", "\"Infinity\"", "-1", "1e400"}) {
            ObjectNode recipe = JSON.valueToTree(ScratchRecipe.defaults());
            recipe.set("temperature", JSON.readTree(bad));
            ObjectNode body = JSON.createObjectNode().put("task", "finance").set("recipe", recipe);
            JsonProcessingException e = assertThrows(JsonProcessingException.class,
                    () -> JobRequest.fromNetwork(JSON.writeValueAsString(body), dir.resolve("runs"), dir.resolve("data")), bad);
            assertTrue(String.valueOf(e.getCause()).contains("recipe field temperature must be a finite number"), bad + ": " + e);
        }
    }
}
