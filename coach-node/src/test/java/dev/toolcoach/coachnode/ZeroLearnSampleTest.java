package dev.toolcoach.coachnode;

import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.tasks.TaskExample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZeroLearnSampleTest {

    @Test
    void sampleKeepsTwentyRankedFinanceQueries(@TempDir Path dir) {
        Path out = dir.resolve("sample.jsonl");

        assertEquals(0, ZeroLearnSample.run(out, 20));

        List<TaskExample> examples = ExampleJsonl.read(out).items();
        assertEquals(20, examples.size());
        assertEquals(1, examples.get(0).gold().get("rank"));
        // the ranking reply puts the two-call queries first
        assertTrue(((List<?>) examples.get(0).gold().get("intended_calls")).size() >= 2);
        assertEquals(1, ((List<?>) examples.get(19).gold().get("intended_calls")).size());
    }
}
