package dev.toolcoach.tasks;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskRegistryTest {

    @TempDir
    Path empty;

    private static Trace firstReply(TaskExample ex, String completion) {
        Turn turn = new Turn("prompt", completion, new ParsedCompletion(null, List.of(), null, null, null), null, List.of(), List.of(), 0, 0);
        return new Trace("r", "g", ex.id(), ex.query(), List.of(turn), null, null, Termination.MAX_TURNS, null, 0, 0, Map.of());
    }

    @Test
    void knowsTheGeneratedTasksAndTheDatasetsByName() {
        TaskRegistry registry = TaskRegistry.standard(SharedData.require("."), 1);
        assertEquals(List.of("arithmetic", "finance", "email", "hpo", "hpo-breast_cancer", "hpo-wine", "hpo-digits", "hpo-diabetes",
                "bfcl-simple", "bfcl-multiple", "bfcl-parallel", "xlam-toolalpaca", "glaive"), registry.names());
        assertSame(registry.get("arithmetic"), registry.get("arithmetic"));
        assertEquals(TaskRegistry.GENERATED_QUESTIONS, registry.get("finance").examples().size());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> registry.get("chess"));
        assertTrue(unknown.getMessage().contains("known tasks: [arithmetic"), unknown.getMessage());
    }

    @Test
    void datasetTasksRewardTheFirstReplysCalls() {
        TaskRegistry registry = TaskRegistry.standard(SharedData.require("."), 1);
        for (String name : List.of("bfcl-parallel", "xlam-toolalpaca", "glaive")) {
            Task task = registry.get(name);
            assertEquals(List.of(), task.toolSuites());
            for (TaskExample ex : task.examples()) {
                assertTrue(!ex.tools().isEmpty(), ex.id());
                assertEquals(1.0, task.reward().score(ex, firstReply(ex, ex.oracleCompletions(ActionFormat.TOOL_N1).get(0))), ex.id());
                assertEquals(0.0, task.reward().score(ex, firstReply(ex, "<think>hm</think><answer>no idea</answer>")), ex.id());
            }
        }
        FunctionCallingTask glaive = (FunctionCallingTask) registry.get("glaive");
        assertEquals(2, glaive.loadReport().filtered().size());
    }

    @Test
    void missingDataIsAClearErrorWhenTheTaskIsAskedFor() {
        TaskRegistry registry = TaskRegistry.standard(empty, 1);
        assertEquals(TaskRegistry.GENERATED_QUESTIONS, registry.get("arithmetic").examples().size());
        DatasetException e = assertThrows(DatasetException.class, () -> registry.get("bfcl-simple"));
        assertTrue(e.getMessage().contains("BFCL_v3_simple.json does not exist"), e.getMessage());
        assertThrows(DatasetException.class, () -> registry.get("email"));
        assertTrue(assertThrows(DatasetException.class, () -> registry.get("hpo")).getMessage().endsWith("hpo does not exist"));
    }
}
