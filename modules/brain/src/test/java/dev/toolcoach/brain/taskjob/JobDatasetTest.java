package dev.toolcoach.brain.taskjob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        assertEquals(List.of(2, 4, 5), dataset.skipped().stream().map(s -> s.lineNumber()).toList());
        assertTrue(dataset.skipped().get(2).reason().equals("its \"id\" repeats an earlier line's"), dataset.skipped().toString());
        assertTrue(dataset.skipSummary().matches(".*d\\.jsonl: 3 bad lines skipped: line 2 \\(.*\\), line 4 \\(.*\\), line 5 \\(.*\\)"),
                dataset.skipSummary());
        assertEquals(3, ((List<?>) dataset.record().get("skipped_lines")).size());
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
        assertTrue(allBad.contains("has no usable example (7 bad lines: line 1 (") && allBad.endsWith(" and 2 more)"), allBad);
        assertTrue(!allBad.contains("\n"), allBad);
    }
}
