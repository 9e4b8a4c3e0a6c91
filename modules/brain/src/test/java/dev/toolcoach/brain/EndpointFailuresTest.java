package dev.toolcoach.brain;

import com.sun.net.httpserver.HttpServer;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.DistillSettings;
import dev.toolcoach.brain.distill.Distiller;
import dev.toolcoach.brain.distill.OpenAiTeacher;
import dev.toolcoach.brain.distill.SkipReason;
import dev.toolcoach.brain.distill.Student;
import dev.toolcoach.brain.distill.TeacherUnavailableException;
import dev.toolcoach.brain.distill.TraceCache;
import dev.toolcoach.brain.zerolearn.ZeroLearn;
import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unreachable endpoints, rejected keys, timeouts and replies without choices, for both coaching strategies. */
class EndpointFailuresTest {

    static final String MODEL = "scripted";
    static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMl.IM_END));
    static final Task FINANCE = FinanceTask.create(2, 3L);

    static OpenAiConfig config(String baseUrl) {
        return OpenAiConfig.of(baseUrl, MODEL).withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10));
    }

    static ZeroLearn zeroLearn(OpenAiConfig config) {
        return ZeroLearn.withDefaults(new OpenAiClient(config));
    }

    static OpenAiException generate(OpenAiConfig config) {
        return assertThrows(OpenAiException.class, () -> zeroLearn(config).generateTrainingExamples(
                "Answer investment questions", 2, 1, 20, null, FinanceTools.specs(), false));
    }

    static DistillReport distill(OpenAiConfig config, Path cache) {
        try (ToolExecutor tools = FinanceTools.executor()) {
            Distiller distiller = new Distiller(STUDENT, tools,
                    new DistillSettings(1, 0.9, AgentConfig.defaults()), new TraceCache(cache), null);
            return distiller.distill(DistillDataset.of(FINANCE, FINANCE.examples()),
                    new OpenAiTeacher(new OpenAiClient(config), STUDENT, tools.specs()));
        }
    }

    static String closedPortUrl() {
        return "http://127.0.0.1:" + FreePorts.pick() + "/v1";
    }

    @Test
    void unreachableEndpointIsAClearError(@TempDir Path cache) throws IOException {
        OpenAiConfig config = config(closedPortUrl());

        assertEquals(OpenAiException.Kind.UNREACHABLE, generate(config).kind());
        TeacherUnavailableException e = assertThrows(TeacherUnavailableException.class, () -> distill(config, cache));
        assertTrue(e.getMessage().contains("cannot reach"), e.getMessage());
        try (var files = Files.list(cache)) {
            assertEquals(0, files.count(), "nothing is cached from a teacher that could not be reached");
        }
    }

    @Test
    void rejectedKeyIsAClearError(@TempDir Path cache) {
        try (OpenAiServer server = OpenAiServer.start(new ScriptedBackend(MODEL),
                ServerSettings.loopback(0).withApiKey("right-key"))) {
            OpenAiConfig config = config(server.baseUrl()).withApiKey("wrong-key");

            OpenAiException generation = generate(config);
            assertEquals(OpenAiException.Kind.UNAUTHORIZED, generation.kind());
            assertTrue(generation.getMessage().contains("401"));
            TeacherUnavailableException e = assertThrows(TeacherUnavailableException.class, () -> distill(config, cache));
            assertTrue(e.getMessage().contains("401") && !e.getMessage().contains("wrong-key"), e.getMessage());
        }
    }

    @Test
    void teacherTimeoutsAreCountedSkipsAndNotCached(@TempDir Path cache) {
        CountDownLatch gate = new CountDownLatch(1);
        ScriptedBackend slow = new ScriptedBackend(MODEL);
        slow.hold(gate, "too late").hold(gate, "too late");
        try (OpenAiServer server = OpenAiServer.start(slow, ServerSettings.loopback(0))) {
            // the gate opens before the server closes, so its held generations end and it stops at once
            try {
                // long enough to connect on a loaded machine (the connect timeout is the request timeout), short for a test
                OpenAiConfig config = config(server.baseUrl()).withRequestTimeout(Duration.ofMillis(1500));

                DistillReport report = distill(config, cache);

                assertEquals(2, report.collected());
                assertEquals(2, report.skipped(SkipReason.TEACHER_ERROR));
                assertEquals(0, report.keptCount());
                assertNull(report.cacheFile());
                slow.reset();
                slow.hold(gate, "too late");
                assertEquals(OpenAiException.Kind.TIMEOUT, generate(config).kind());
            } finally {
                gate.countDown();
            }
        }
    }

    @Test
    void replyWithoutChoicesIsACountedSkipOrAClearError(@TempDir Path cache) throws IOException {
        HttpServer empty = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        empty.createContext("/v1/chat/completions", exchange -> {
            byte[] body = "{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":0,\"model\":\"scripted\",\"choices\":[]}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        empty.start();
        try {
            OpenAiConfig config = config("http://127.0.0.1:" + empty.getAddress().getPort() + "/v1");

            OpenAiException e = generate(config);
            assertEquals(OpenAiException.Kind.NO_CHOICES, e.kind());
            assertTrue(e.getMessage().contains("no choices"));
            DistillReport report = distill(config, cache);
            assertEquals(2, report.skipped(SkipReason.TEACHER_ERROR));
            assertTrue(report.kept().isEmpty());
        } finally {
            empty.stop(0);
        }
    }
}
