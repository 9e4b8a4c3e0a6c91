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
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The imperfect oracle teacher through the real agent loop and finance tools. */
class OracleTeacherTest {
    private static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    private static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMl.IM_END));
    private static final Task FINANCE = FinanceTask.create(60, 5L);

    @Test
    void wrongOnAboutItsShareOfTheQueriesTheSameOnesForASeedEachWithTheOraclesCallsAndTwoDigitsOfItsAnswerSwapped(@TempDir Path cache) {
        OracleTeacher.Errors errors = new OracleTeacher.Errors(0.4, 3L);
        List<ScoredTrace> demonstrations = demonstrations(cache.resolve("a"), errors);
        Map<String, ScoredTrace> oracle = demonstrations(cache.resolve("oracle"), OracleTeacher.Errors.NONE).stream()
                .collect(Collectors.toMap(d -> d.trace().queryId(), Function.identity()));
        Map<String, TaskExample> byId = FINANCE.examples().stream().collect(Collectors.toMap(TaskExample::id, Function.identity()));

        assertEquals(60, demonstrations.size(), "every demonstration kept, right or wrong");
        assertTrue(oracle.values().stream().allMatch(d -> d.reward() >= 0.9), "without errors it is the oracle");
        long wrong = demonstrations.stream().filter(d -> d.reward() < 0.9).count();
        assertTrue(wrong >= 14 && wrong <= 34, "about 40% of 60 wrong: " + wrong);
        for (ScoredTrace d : demonstrations) {
            String asked = d.trace().queryId();
            assertEquals(oracle.get(asked).trace().toolCalls(), d.trace().toolCalls(), "the oracle's calls: " + asked);
            assertEquals(texts(oracle.get(asked)), texts(d), "what the tools returned: " + asked);
            String gold = byId.get(asked).goldAnswer();
            String answered = d.trace().finalAnswer().replace("$", "").replace("%", "");
            if (d.reward() >= 0.9) {
                assertEquals(gold, answered, asked);
            } else {
                assertEquals(gold.length(), answered.length(), asked);
                int first = firstDifference(gold, answered);
                assertTrue(first >= 0 && gold.charAt(first) == answered.charAt(first + 1) && gold.charAt(first + 1) == answered.charAt(first)
                        && gold.substring(first + 2).equals(answered.substring(first + 2)), "two adjacent digits swapped: " + gold + " -> " + answered);
            }
        }
        assertEquals(demonstrations.stream().map(ScoredTrace::reward).toList(),
                demonstrations(cache.resolve("b"), errors).stream().map(ScoredTrace::reward).toList(), "the same queries wrong for a seed");
        assertThrows(IllegalArgumentException.class, () -> new OracleTeacher.Errors(1, 0));
    }

    @Test
    void aMisreadSwapsTwoAdjacentDifferentDigitsAndLeavesAnAnswerWithoutSuchAPairAlone() {
        SplittableRandom draw = new SplittableRandom(7);
        for (int i = 0; i < 50; i++) {
            String misread = OracleTeacher.misread("$1000.25", draw);
            assertTrue(List.of("$0100.25", "$1000.52").contains(misread), misread);
        }
        assertEquals("$1111.11", OracleTeacher.misread("$1111.11", draw));
        assertEquals("no answer", OracleTeacher.misread("no answer", draw));
        assertEquals("7.5%", OracleTeacher.misread("7.5%", draw), "digits apart across the point are not adjacent");
    }

    private static List<String> texts(ScoredTrace demonstration) {
        return demonstration.trace().toolResults().stream().map(ToolResult::text).toList();
    }

    private static int firstDifference(String a, String b) {
        for (int i = 0; i < a.length(); i++) {
            if (a.charAt(i) != b.charAt(i)) return i;
        }
        return -1;
    }

    private static List<ScoredTrace> demonstrations(Path cache, OracleTeacher.Errors errors) {
        try (ToolExecutor tools = FinanceTools.executor()) {
            Distiller distiller = new Distiller(STUDENT, tools, new DistillSettings(1, -1, AgentConfig.defaults()), new TraceCache(cache), null);
            return distiller.distill(DistillDataset.of(FINANCE, FINANCE.examples()), new OracleTeacher(FINANCE.name(), STUDENT, errors)).kept();
        }
    }
}
