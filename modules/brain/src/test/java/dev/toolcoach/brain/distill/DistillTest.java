package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.testkit.ScriptedServer;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Distillation with the real agent loop and finance tools; the endpoint teacher is a scripted model behind the real server. */
class DistillTest {

    static final String MODEL = "scripted-teacher";
    static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMl.IM_END));
    static final Task FINANCE = FinanceTask.create(3, 7L);

    @RegisterExtension
    static final ScriptedServer server = ScriptedServer.start(MODEL);
    ToolExecutor tools;

    @BeforeEach
    void setUp() {
        server.backend().reset();
        tools = FinanceTools.executor();
    }

    static OpenAiTeacher teacher(OpenAiConfig config) {
        return new OpenAiTeacher(new OpenAiClient(config), STUDENT, FinanceTools.specs());
    }

    static OpenAiConfig endpoint() {
        return OpenAiConfig.of(server.baseUrl(), MODEL).withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10));
    }

    Distiller distiller(Path cacheDir, int maxTurns, SftStep sft) {
        DistillSettings settings = new DistillSettings(1, 0.9, AgentConfig.defaults().withLimits(maxTurns, 4096));
        return new Distiller(STUDENT, tools, settings, new TraceCache(cacheDir), sft);
    }

    static DistillDataset dataset() {
        return DistillDataset.of(FINANCE, FINANCE.examples());
    }

    @Test
    void endpointTeacherTracesAreFilteredCachedAndNotAskedForAgain(@TempDir Path cache) {
        List<TaskExample> ex = FINANCE.examples();
        ex.get(0).oracleCompletions(ActionFormat.TOOL_N1).forEach(server.backend()::reply);              // solves it
        List<String> wrong = ex.get(1).oracleCompletions(ActionFormat.TOOL_N1);
        for (int i = 0; i < wrong.size() - 1; i++) server.backend().reply(wrong.get(i));
        server.backend().reply("<think>I guess.</think><answer>$1.00</answer>");     // answers wrongly
        String call = ex.get(2).oracleCompletions(ActionFormat.TOOL_N1).get(0);
        server.backend().reply(call).reply(call).reply(call);                        // never answers in 3 turns
        List<List<ScoredTrace>> trained = new ArrayList<>();

        DistillReport first = distiller(cache, 3, kept -> {
            trained.add(kept);
            return kept.stream().mapToLong(t -> java.util.Arrays.stream(t.trace().tokens().lossMask()).filter(m -> m == 1).count()).sum();
        }).distill(dataset(), teacher(endpoint()));

        int requests = server.backend().requests().size();
        assertEquals(ex.get(0).oracleCompletions(ActionFormat.TOOL_N1).size() + wrong.size() + 3, requests,
                () -> first.skipped() + " " + first.kept() + server.backend().requests());
        assertEquals(3, first.collected());
        assertFalse(first.fromCache());
        assertEquals(1, first.keptCount());
        assertEquals(Map.of(SkipReason.NO_ANSWER, 1, SkipReason.BELOW_THRESHOLD, 1, SkipReason.TEACHER_ERROR, 0), first.skipped());
        Trace kept = first.kept().get(0).trace();
        assertEquals(1.0, first.kept().get(0).reward());
        assertEquals(ex.get(0).id(), kept.queryId());
        assertEquals(first.kept(), trained.get(0));
        assertTrue(first.trainedTokens() > 0);

        // the teacher's reply became the student's generated tokens, re-tokenised with its tokenizer
        int start = kept.turns().get(0).tokenStart();
        String firstReply = kept.turns().get(0).modelCompletion();
        assertTrue(firstReply.startsWith("<think>") && firstReply.contains("<tool_call>"), firstReply);
        assertTrue(kept.turns().get(0).parsedCompletion().valid());
        assertEquals(firstReply + ChatMl.IM_END, TOKENIZER.decode(java.util.Arrays.copyOfRange(
                kept.tokens().tokenIds(), start,
                start + TOKENIZER.encode(firstReply).length + 1)));
        // the teacher saw the real tool output as a tool message answering its call
        BackendRequest second = server.backend().requests().get(1);
        Message toolMessage = second.messages().get(second.messages().size() - 1);
        assertEquals("tool", toolMessage.role());
        assertEquals(kept.toolResults().get(0).text(), toolMessage.content());

        DistillReport again = distiller(cache, 3, null).distill(dataset(), teacher(endpoint()));

        assertEquals(requests, server.backend().requests().size(), "a cached run must not call the teacher");
        assertTrue(again.fromCache());
        assertEquals(first.collected(), again.collected());
        assertEquals(first.kept().stream().map(k -> TraceJson.toJson(k.trace())).toList(),
                again.kept().stream().map(k -> TraceJson.toJson(k.trace())).toList());
        assertEquals(first.skipped(), again.skipped());
        assertEquals(0, again.trainedTokens());
    }

    /** A teacher that writes Hermes natively (a Qwen behind an OpenAI server) teaches a student that writes Llama 3 JSON. */
    @Test
    void aNativeTeacherTeachesInTheStudentsFormat(@TempDir Path cache) {
        TaskExample example = FINANCE.examples().get(0);
        try (ScriptedServer qwen = ScriptedServer.start("qwen", ActionFormat.HERMES)) {
            example.oracleCompletions(ActionFormat.HERMES).forEach(qwen.backend()::reply);
            AgentConfig d = AgentConfig.defaults();
            DistillSettings settings = new DistillSettings(1, 0.9, new AgentConfig(ActionFormat.LLAMA3_JSON, d.sampling(), 4,
                    4096, d.toolTimeout(), d.toolOutputCap()));
            OpenAiTeacher teacher = teacher(OpenAiConfig.of(qwen.baseUrl(), "qwen").withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10)));

            DistillReport report = new Distiller(STUDENT, tools, settings, new TraceCache(cache), null)
                    .distill(DistillDataset.of(FINANCE, List.of(example)), teacher);

            assertEquals(1, report.keptCount(), report.skipped().toString());
            Trace kept = report.kept().get(0).trace();
            String call = kept.turns().get(0).modelCompletion();
            assertTrue(call.startsWith("{\"name\": \"") && call.contains("\"parameters\": {"), call);
            assertEquals(example.solution().get(0).calls(), kept.turns().get(0).parsedCompletion().toolCalls());
            assertFalse(kept.turns().get(1).modelCompletion().contains("<"), "a plain-text answer: " + kept.turns().get(1).modelCompletion());

            BackendRequest second = qwen.backend().requests().get(1);
            Message earlier = second.messages().get(second.messages().size() - 2);
            assertTrue(earlier.content().contains("<tool_call>\n{\"name\": "), "the teacher sees its own turn in Hermes: " + earlier);
            Message result = second.messages().get(second.messages().size() - 1);
            assertEquals(example.solution().get(0).calls().get(0).name(), result.name(), "the tool result names its tool");
        }
    }

    /**
     * A code-acting student (distill --teacher-url ... --action-format code-act): the endpoint teacher writes its
     * programs as plain content in {@code <code>} blocks, which run in the sandbox as the student's would, their
     * output going back to the teacher; they are not taken for answers.
     */
    @Test
    void aCodeActingStudentsTeacherHasItsProgramsRun(@TempDir Path cache) {
        TaskExample example = FINANCE.examples().get(0);
        example.oracleCompletions(ActionFormat.CODE_ACT).forEach(server.backend()::reply);
        AgentConfig d = AgentConfig.defaults();
        DistillSettings settings = new DistillSettings(1, 0.9, new AgentConfig(ActionFormat.CODE_ACT, d.sampling(), 4,
                4096, d.toolTimeout(), d.toolOutputCap()));

        DistillReport report = new Distiller(STUDENT, tools, settings, new TraceCache(cache), null)
                .distill(DistillDataset.of(FINANCE, List.of(example)), teacher(endpoint()));

        assertEquals(1, report.keptCount(), report.skipped().toString());
        Trace kept = report.kept().get(0).trace();
        assertTrue(kept.turns().get(0).modelCompletion().contains("<code>"), kept.turns().get(0).modelCompletion());
        assertEquals("python", kept.turns().get(0).parsedCompletion().toolCalls().get(0).name(), "a program, not an answer");
        assertTrue(kept.toolResults().get(0).ok(), kept.toolResults().get(0).text());
        BackendRequest second = server.backend().requests().get(1);
        Message observation = second.messages().get(second.messages().size() - 1);
        assertTrue(observation.content().contains(kept.toolResults().get(0).text()), "the teacher saw what its program printed: "
                + observation.content());
    }

    @Test
    void oracleTeacherKeepsEverySolvedExample(@TempDir Path cache) {
        Distiller twoEach = new Distiller(STUDENT, tools, new DistillSettings(2, 0.9, AgentConfig.defaults()),
                new TraceCache(cache), null);

        DistillReport report = twoEach.distill(dataset(), new OracleTeacher(FINANCE.name(), STUDENT));

        assertEquals(6, report.collected());
        assertEquals(6, report.keptCount());
        assertTrue(report.kept().stream().allMatch(k -> k.trace().toolCalls().size() >= 1));
        assertTrue(Files.isRegularFile(report.cacheFile()));
    }

    @Test
    void aChangedDatasetOrSettingMissesTheCache(@TempDir Path cache) {
        Teacher oracle = new OracleTeacher(FINANCE.name(), STUDENT);
        DistillReport all = distiller(cache, 8, null).distill(dataset(), oracle);
        DistillReport fewer = distiller(cache, 8, null).distill(DistillDataset.of(FINANCE, FINANCE.examples().subList(0, 2)), oracle);
        DistillReport shorter = distiller(cache, 3, null).distill(dataset(), oracle);

        assertFalse(fewer.fromCache());
        assertFalse(shorter.fromCache());
        assertEquals(2, fewer.collected());
        assertEquals(3, List.of(all.cacheFile(), fewer.cacheFile(), shorter.cacheFile()).stream().distinct().count());
    }

    @Test
    void aDamagedCacheFileIsCollectedAgain(@TempDir Path cache) throws Exception {
        Teacher oracle = new OracleTeacher(FINANCE.name(), STUDENT);
        DistillReport first = distiller(cache, 8, null).distill(dataset(), oracle);
        Files.writeString(first.cacheFile(), Files.readString(first.cacheFile()).substring(0, 100));

        DistillReport second = distiller(cache, 8, null).distill(dataset(), oracle);

        assertFalse(second.fromCache());
        assertEquals(3, second.keptCount());
    }
}
