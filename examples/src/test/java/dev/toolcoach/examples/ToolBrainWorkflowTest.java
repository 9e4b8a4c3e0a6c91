package dev.toolcoach.examples;

import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's workflow, whole, on tiny random model folders: every phase runs and hands its result to the next. */
class ToolBrainWorkflowTest {

    @Test
    void generateDistilTrainEvaluateAndServe(@TempDir Path dir) throws Exception {
        Path generator = TinyChatModel.write(dir.resolve("generator"), 3);
        Path teacher = TinyChatModel.write(dir.resolve("teacher"), 5);
        Path student = TinyChatModel.write(dir.resolve("student"), 7);

        ToolBrainWorkflow.Report report = ToolBrainWorkflow.run(
                new ToolBrainWorkflow.Settings(generator, teacher, student, dir.resolve("work"), 2, 2, 1, 1));

        assertTrue(report.generated().generationReplies() > 0, "the generator model was asked over HTTP");
        assertEquals(report.generated().examples().size() + 30, report.trainingQueries(), "generated + the task's training queries");
        assertEquals(2, report.distilled().collected(), "the teacher answered every distillation query");
        assertTrue(Files.isRegularFile(dir.resolve("work/distilled/config.json")), "the distilled student was written");
        // one GRPO step of two groups scored by the lambda (a random student's groups may all score alike: no update then)
        assertEquals(2, report.trained().accounts().trained() + report.trained().accounts().skipped(), report.trained().accounts().toString());
        assertEquals(0, report.trained().accounts().pending());
        assertEquals(10, report.evaluated().examples());
        assertTrue(Files.isRegularFile(dir.resolve("work/adapter/adapter_config.json")));
        assertFalse(report.servedReply().isEmpty(), "the served student answered");
    }
}
