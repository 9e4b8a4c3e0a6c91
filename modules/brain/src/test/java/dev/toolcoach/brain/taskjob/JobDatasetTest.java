package dev.toolcoach.brain.taskjob;

import dev.toolcoach.tasks.FunctionCallingTask;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import dev.toolcoach.testkit.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A job's own dataset: bad lines are counted skips with their line numbers; a file without a usable example is refused. */
class JobDatasetTest {
    static final String GOOD_A = "{\"id\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}], \"gold_answer\": \"4\"}";
    static final String GOOD_B = "{\"id\": \"b\", \"messages\": [{\"role\": \"user\", \"content\": \"3+3?\"}], \"gold_answer\": \"6\"}";

    @Test
    void badLinesAreSkippedAndCountedWithTheirLineNumbers(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("d.jsonl"), String.join("\n", GOOD_A, "not json", "", "{\"id\": \"c\"}",
                GOOD_A.replace("2+2", "5+5"), GOOD_B) + "\n");

        JobDataset dataset = JobDataset.read(file);

        assertEquals(List.of("a", "b"), dataset.examples().stream().map(e -> e.id()).toList());
        assertEquals(List.of("line 2", "line 4", "line 5"), dataset.skipped().stream().map(s -> s.location()).toList());
        assertTrue(dataset.skipped().get(2).reason().equals("its \"id\" repeats an earlier line's"), dataset.skipped().toString());
        assertTrue(dataset.skipSummary().matches(".*d\\.jsonl: 3 bad records skipped: line 2 \\(.*\\), line 4 \\(.*\\), line 5 \\(.*\\)"),
                dataset.skipSummary());
        assertEquals(3, ((List<?>) dataset.record().get("skipped")).size());
    }

    @Test
    void aMissingEmptyOrAllBadFileIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        String missing = assertThrows(IllegalArgumentException.class, () -> JobDataset.read(dir.resolve("none.jsonl"))).getMessage();
        assertTrue(missing.startsWith("cannot read the dataset ") && missing.endsWith("none.jsonl: no such readable file"), missing);
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobDataset.read(empty)).getMessage()
                .endsWith("has no usable example (it is empty)"));
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), "x\n".repeat(7));
        String allBad = assertThrows(IllegalArgumentException.class, () -> JobDataset.read(bad)).getMessage();
        assertTrue(allBad.contains("has no usable example (7 bad records: line 1 (") && allBad.endsWith(" and 2 more)"), allBad);
        assertTrue(!allBad.contains("\n"), allBad);
    }

    @Test
    void theXlamAndShareGptSamplesAreTasksOfTheirOwnScoredByCallMatch() {
        JobDataset xlam = JobDataset.read(SharedData.require("toolcall/toolalpaca_xlam_format.json"));
        assertEquals(JobDataset.Layout.XLAM, xlam.layout());
        assertEquals(114, xlam.examples().size() + xlam.skipped().size(), "every item loaded or counted");
        assertTrue(xlam.examples().size() > 90, xlam.skipSummary());
        Task task = xlam.asTask();
        assertEquals("toolalpaca_xlam_format", task.name());
        assertTrue(task instanceof FunctionCallingTask && task.toolSuites().isEmpty());
        assertTrue(xlam.examples().stream().allMatch(e -> !e.tools().isEmpty() && !e.solution().get(0).calls().isEmpty()));

        JobDataset glaive = JobDataset.read(SharedData.require("toolcall/glaive_toolcall_en_demo.json"));
        assertEquals(JobDataset.Layout.SHAREGPT, glaive.layout());
        assertTrue(glaive.examples().size() > 100 && glaive.examples().stream().allMatch(e -> e.id().startsWith("sharegpt_")));
        assertEquals("sharegpt", glaive.record().get("layout"));
    }

    @Test
    void aUsersJsonLinesOfQueriesToolsAndGoldCallsIsAFunctionCallingTask(@TempDir Path dir) throws Exception {
        String tools = "[{\"name\": \"add\", \"description\": \"adds\", \"parameters\": {\"type\": \"object\", "
                + "\"properties\": {\"a\": {\"type\": \"integer\"}, \"b\": {\"type\": \"integer\"}}, \"required\": [\"a\", \"b\"]}}]";
        Path file = Files.writeString(dir.resolve("mine.jsonl"), String.join("\n",
                "{\"id\": \"q1\", \"system\": \"Use tools.\", \"query\": \"2+3?\", \"tools\": " + tools
                        + ", \"gold_calls\": [{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}], \"metadata\": {\"level\": 1}}",
                "{\"id\": \"q2\", \"query\": \"4+5?\", \"tools\": " + tools
                        + ", \"gold_calls\": [{\"name\": \"add\", \"arguments\": {\"a\": \"four\", \"b\": 5}}]}",
                "{\"id\": \"q3\", \"query\": \"x\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}") + "\n");

        JobDataset dataset = JobDataset.read(file);

        assertEquals(List.of("q1"), dataset.examples().stream().map(TaskExample::id).toList());
        assertEquals("system", dataset.examples().get(0).messages().get(0).role());
        assertEquals(Map.of("category", "simple", "level", 1), dataset.examples().get(0).gold(), "the line's metadata is kept");
        assertTrue(dataset.calling().isPresent() && dataset.asTask() instanceof FunctionCallingTask);
        assertEquals(List.of("line 3", "example q2"), dataset.skipped().stream().map(DatasetIssue::location).toList(),
                "both spellings of the query, and a gold call that does not fit its tool: " + dataset.skipped());
    }

    @Test
    void linesWithGoldAnswersAloneAreATaskOfAnswers(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("answers.jsonl"), GOOD_A + "\n" + GOOD_B + "\n");

        Task task = JobDataset.read(file).asTask();

        assertTrue(task instanceof SimpleTask, task.getClass().toString());
        assertEquals(2, task.examples().size());
        Path array = Files.writeString(dir.resolve("other.json"), "[{\"question\": \"?\"}]");
        String refused = assertThrows(IllegalArgumentException.class, () -> JobDataset.read(array)).getMessage();
        assertTrue(refused.endsWith("is a JSON array whose first item is neither xLAM ({query, tools, answers}) nor ShareGPT/Glaive "
                + "({conversations, tools})"), refused);
    }
}
