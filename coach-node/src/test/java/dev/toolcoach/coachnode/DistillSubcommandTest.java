package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code coach-node distill} in-process with a tiny random student folder: bad input, and the oracle teacher end to end. */
class DistillSubcommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static Path student;

    @BeforeAll
    static void writeStudent() throws Exception {
        student = TinyChatModel.write(dir.resolve("student"), 5);
    }

    /** One line on stderr starting with {@code expected}, exit 2, nothing on stdout and no work folder. */
    private static void assertRejected(String expected, Path work, String... args) {
        CliRun run = new CliRun();
        int code = run.execute(args);
        String err = run.err.toString().strip();
        assertEquals(2, code, err);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith(expected), err);
        assertFalse(err.contains("\tat "), "no stack trace");
        assertEquals("", run.out.toString());
        assertFalse(Files.exists(work), "nothing written");
    }

    private static String[] args(Path work, String... more) {
        String[] base = {"distill", "--task", "arithmetic", "--examples", "2", "--student", student.toString(),
                "--work-dir", work.toString()};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void noTeacherIsRejected(@TempDir Path tmp) {
        Path work = tmp.resolve("work");
        assertRejected("distill: no teacher: give exactly one of --teacher-url URL, --teacher-model DIR, --oracle", work, args(work));
    }

    @Test
    void twoTeachersAreRejected(@TempDir Path tmp) {
        Path work = tmp.resolve("work");
        assertRejected("distill: more than one teacher", work, args(work, "--oracle", "--teacher-model", student.toString()));
        assertRejected("distill: more than one teacher", work, args(work, "--oracle", "--teacher-url", "http://127.0.0.1:9/v1"));
    }

    @Test
    void missingModelFoldersAreNamed(@TempDir Path tmp) {
        Path work = tmp.resolve("work");
        Path none = tmp.resolve("no-model");
        assertRejected("distill: --teacher-model " + none + " is not a model folder (no config.json)", work,
                args(work, "--teacher-model", none.toString()));
        assertRejected("distill: --student " + none + " is not a model folder (no config.json)", work,
                "distill", "--task", "arithmetic", "--oracle", "--student", none.toString(), "--work-dir", work.toString());
    }

    @Test
    void anUnreachableEndpointIsRejected(@TempDir Path tmp) throws Exception {
        int port = FreePorts.pick();
        Path work = tmp.resolve("work");
        assertRejected("distill: teacher openai:http://127.0.0.1:" + port, work,
                args(work, "--teacher-url", "http://127.0.0.1:" + port + "/v1", "--model", "m", "--retries", "0"));
    }

    @Test
    void anUnknownActionFormatIsRejected(@TempDir Path tmp) {
        Path work = tmp.resolve("work");
        assertRejected("distill: --action-format: unknown action format 'xml'; known: tool-n1, tool-n1-compact, hermes, llama3-json, phi, code-act",
                work, args(work, "--oracle", "--action-format", "xml"));
    }

    @Test
    void theOracleTeachesInTheChosenNativeFormat(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path kept = tmp.resolve("kept.jsonl");
        CliRun run = new CliRun();
        assertEquals(0, run.execute(args(work, "--oracle", "--action-format", "hermes", "--epochs", "1", "--batch", "2",
                "--max-new-tokens", "256", "--out", kept.toString())), run.err.toString());
        JsonNode s = JSON.readTree(run.out.toString());
        assertEquals("hermes", s.get("action_format").asText());
        assertEquals(2, s.get("kept").asInt(), s.toString());
        String traces = Files.readString(kept);
        assertTrue(traces.contains("<tool_call>\\n{\\\"name\\\": "), "the student learns Hermes calls: " + traces);
        assertFalse(traces.contains("<answer>"), "and plain-text answers");
    }

    @Test
    void theOracleTeachesTheStudentAndASecondRunReadsTheCache(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        String[] args = args(work, "--oracle", "--epochs", "1", "--batch", "2", "--learning-rate", "1e-2",
                "--max-new-tokens", "256", "--out", tmp.resolve("kept.jsonl").toString());

        CliRun first = new CliRun();
        assertEquals(0, first.execute(args), first.err.toString());
        JsonNode s = JSON.readTree(first.out.toString());

        assertEquals(2, s.get("collected").asInt());
        assertEquals("tool-n1", s.get("action_format").asText(), "a student without its own chat template learns Tool-N1");
        assertEquals(2, s.get("kept").asInt());
        assertFalse(s.get("from_cache").asBoolean());
        assertEquals(0, s.get("skipped").get("NO_ANSWER").asInt() + s.get("skipped").get("BELOW_THRESHOLD").asInt()
                + s.get("skipped").get("TEACHER_ERROR").asInt());
        assertTrue(s.get("trained_tokens").asLong() > 0, s.toString());
        Path distilled = work.resolve("distilled");
        assertEquals(distilled.toString(), s.get("distilled").asText());
        assertNotEquals(-1L, Files.mismatch(student.resolve("model.safetensors"), distilled.resolve("model.safetensors")));
        assertTrue(Files.isRegularFile(distilled.resolve("tokenizer.json")));
        assertEquals(2, Files.readAllLines(tmp.resolve("kept.jsonl")).size());

        CliRun second = new CliRun();
        assertEquals(0, second.execute(args), second.err.toString());
        JsonNode again = JSON.readTree(second.out.toString());
        assertTrue(again.get("from_cache").asBoolean());
        assertEquals(s.get("cache_file"), again.get("cache_file"));
        assertEquals(s.get("trained_tokens"), again.get("trained_tokens"));
    }
}
