package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The imperfect oracle teacher through the real agent loop and finance tools. */
class OracleTeacherTest {
    private static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    private static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMl.IM_END));
    private static final Task FINANCE = FinanceTask.create(60, 5L);

    @Test
    void wrongOnAboutItsShareOfTheQueriesTheSameOnesForASeedEachWrongOneAnotherQuerysSolution(@TempDir Path cache) {
        OracleTeacher.Errors errors = new OracleTeacher.Errors(0.4, FINANCE.examples(), 3L);
        List<ScoredTrace> demonstrations = demonstrations(cache.resolve("a"), errors);
        Map<String, TaskExample> byId = FINANCE.examples().stream().collect(Collectors.toMap(TaskExample::id, Function.identity()));

        assertEquals(60, demonstrations.size(), "every demonstration kept, right or wrong");
        long wrong = demonstrations.stream().filter(d -> d.reward() < 0.9).count();
        assertTrue(wrong >= 14 && wrong <= 34, "about 40% of 60 wrong: " + wrong);
        OracleTeacher teacher = new OracleTeacher(FINANCE.name(), STUDENT, errors);
        for (ScoredTrace d : demonstrations) {
            TaskExample asked = byId.get(d.trace().queryId());
            TaskExample replayed = teacher.solved(asked);
            assertEquals(replayed.goldAnswer(), d.trace().finalAnswer().replace("$", "").replace("%", ""),
                    "the demonstration answers what the replayed solution's tools return");
            assertEquals(d.reward() >= 0.9, replayed == asked, asked.id());
            if (replayed != asked) assertNotEquals(asked.id(), replayed.id());
        }
        assertEquals(demonstrations.stream().map(ScoredTrace::reward).toList(),
                demonstrations(cache.resolve("b"), errors).stream().map(ScoredTrace::reward).toList(), "the same queries wrong for a seed");
        assertTrue(demonstrations(cache.resolve("c"), new OracleTeacher.Errors(0, List.of(), 0)).stream().allMatch(d -> d.reward() >= 0.9),
                "without errors it is the oracle");
        assertThrows(IllegalArgumentException.class, () -> new OracleTeacher.Errors(1, FINANCE.examples(), 0));
    }

    private static List<ScoredTrace> demonstrations(Path cache, OracleTeacher.Errors errors) {
        try (ToolExecutor tools = FinanceTools.executor()) {
            Distiller distiller = new Distiller(STUDENT, tools, new DistillSettings(1, -1, AgentConfig.defaults()), new TraceCache(cache), null);
            return distiller.distill(DistillDataset.of(FINANCE, FINANCE.examples()), new OracleTeacher(FINANCE.name(), STUDENT, errors)).kept();
        }
    }
}
