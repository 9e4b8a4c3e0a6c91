package dev.toolcoach.policy;

import dev.toolcoach.model.ComputeDevice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TinyChatModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded run loads its learner with {@code ModelLoader.shared} and its athletes' engine with
 * {@code LocalPolicy.load}: both must read one copy of the base weights, each with its own adapter.
 */
class SharedBasePolicyTest {

    @Test
    void theLearnersAndTheEnginesBaseAreTheSameArrays(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 9);
        try (PolicyModel learner = ModelLoader.shared(model, null, ComputeDevice.cpu());
             LocalPolicy athletes = LocalPolicy.load(model, null, null, 2, ComputeDevice.cpu())) {
            learner.addLora(new LoraConfig(4, 8, 0, Set.of("q_proj", "v_proj")), 1L);
            assertSame(learner.transformer(), athletes.model().transformer());
            List<NDArray> a = learner.transformer().weights().all();
            List<NDArray> b = athletes.model().transformer().weights().all();
            assertEquals(a.size(), b.size());
            for (int i = 0; i < a.size(); i++) {
                assertSame(a.get(i), b.get(i), "base array " + i);
            }
            // the engine still generates over the shared base while the learner holds its adapter on it
            int generated = athletes.engine().submit(new int[] {1, 2, 3}, SamplingParams.greedy(5)).join().tokens().length;
            assertTrue(generated > 0 && generated <= 5, "generated " + generated);
        }
    }
}
