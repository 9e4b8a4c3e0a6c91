package dev.toolcoach.bench.learning;

import dev.toolcoach.model.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.scratch.TaskTexts;
import dev.toolcoach.model.scratch.TaskVocabulary;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Groups sampled from a random scratch model on the engine, with the real finance tools. */
class GroupRolloutsTest {

    @Test
    void samplesGDistinctReproducibleRolloutsPerExample(@TempDir Path dir) throws Exception {
        Task task = FinanceTask.create(2, 9L);
        ScratchRecipe recipe = ScratchRecipe.defaults();
        try (ToolExecutor tools = new ToolExecutor(BuiltinSuites.open("finance", BuiltinSuites.Options.defaults()).suite(),
                ExecutorSettings.defaults())) {
            List<String> texts = TaskTexts.of(task.examples(), tools, recipe.greedyAgent());
            ScratchModel model = ScratchModel.write(dir, TaskVocabulary.learn(texts, 100, 2),
                    new ScratchModel.Shape(32, 64, 1, 2, 2, 1024), 4L);
            try (LocalPolicy policy = LocalPolicy.load(model.dir(), null, null, 8)) {
                GroupRollouts rollouts = new GroupRollouts(policy.tokenizer(), policy.chatFormat(), policy.generator(), tools,
                        recipe.samplingAgent(3L).withLimits(2, 1000), task.reward(), 3);

                List<ScoredGroup> groups = rollouts.sample(task.examples(), "r0");
                List<ScoredGroup> again = rollouts.sample(task.examples(), "r0");

                assertEquals(2, groups.size());
                for (int g = 0; g < 2; g++) {
                    ScoredGroup group = groups.get(g);
                    assertEquals("r0/" + task.examples().get(g).id(), group.groupId());
                    assertEquals(3, group.traces().size());
                    List<Trace> traces = group.traces().stream().map(ScoredTrace::trace).toList();
                    traces.forEach(t -> assertEquals(group.groupId(), t.groupId()));
                    assertNotEquals(Arrays.toString(traces.get(0).tokens().tokenIds()),
                            Arrays.toString(traces.get(1).tokens().tokenIds()), "rollouts of a group must differ");
                    assertEquals(List.of(0.0, 0.0, 0.0), Arrays.stream(group.rewards()).boxed().toList(), "a random model never answers right");
                    for (int i = 0; i < 3; i++) {
                        assertEquals(Arrays.toString(traces.get(i).tokens().tokenIds()),
                                Arrays.toString(again.get(g).traces().get(i).trace().tokens().tokenIds()), "same ids, same seed");
                    }
                }
            }
        }
    }
}
