package dev.toolcoach.tools.email;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-process agent loop, driven by a scripted model, answers an email question over the real
 * Enron index: search, a failed read it recovers from, a read, the answer; the trace records it all.
 */
class EmailAgentEndToEndTest {

    private static final String MESSAGE = "21013688.1075844564560.JavaMail.evans@thyme";

    private static String call(String name, String arguments) {
        return "<think>I need " + name + "</think><tool_call>[{\"name\": \"" + name + "\", \"arguments\": " + arguments
                + "}]</tool_call>";
    }

    @Test
    void scriptedAgentSearchesReadsAndAnswersWithACompleteTrace() throws Exception {
        EmailIndex index = EnronFixture.indexed().index();
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                call("search_emails", "{\"keywords\": \"credit derivatives\", \"from\": \"sara.shackleton@enron.com\","
                        + " \"date_from\": \"2000-08-01\", \"date_to\": \"2000-08-31\"}"),
                call("read_email", "{\"message_id\": \"21013688\"}"),
                call("read_email", "{\"message_id\": \"" + MESSAGE + "\"}"),
                "<think>Found it.</think><answer>William Bradford</answer>"));
        try (ToolExecutor tools = new ToolExecutor(EmailTools.suite(index), ExecutorSettings.defaults())) {
            AgentLoop loop = new AgentLoop(tokenizer, new ChatMlFormat(), model, tools,
                    AgentConfig.defaults().withLimits(6, 60_000).withTools(Duration.ofSeconds(10), 4_000));
            Trace trace = loop.run(new RolloutRequest("r-email", "g-1", "q-1",
                            "To whom did Sara Shackleton write about credit derivatives in August 2000?", Map.of("gold", MESSAGE)))
                    .toCompletableFuture().get(60, TimeUnit.SECONDS);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals("William Bradford", trace.finalAnswer());
            assertEquals(4, trace.turns().size());
            List<ToolResult> results = trace.toolResults();
            assertEquals(List.of(ToolResult.Status.OK, ToolResult.Status.ERROR, ToolResult.Status.OK),
                    results.stream().map(ToolResult::status).toList());
            assertTrue(trace.turns().get(0).toolOutput().contains("message_id: " + MESSAGE), trace.turns().get(0).toolOutput());
            assertTrue(trace.turns().get(1).toolOutput().contains("no message has message_id '21013688'"),
                    "the model saw why its read failed");
            assertEquals("william.bradford@enron.com", ((List<?>) ((Map<?, ?>) results.get(2).structured()).get("to")).get(0));
            assertTrue(trace.turns().get(2).toolOutput().contains("Bill:  Thanks for the info."), "the body reached the model");
            assertEquals(0, tools.openTrajectories(), "the loop released the trajectory");

            int[] mask = trace.tokens().lossMask();
            int observationStart = trace.turns().get(0).tokenStart() + model.replies().get(0).length();
            for (int i = observationStart; i < trace.turns().get(0).tokenEnd(); i++) {
                assertEquals(0, mask[i], "observation tokens are never trained on");
            }
            Trace back = TraceJson.fromJson(TraceJson.toJson(trace));
            assertEquals(trace.toolResults().size(), back.toolResults().size());
            assertEquals(results.get(2).text(), back.toolResults().get(2).text(), "action_output survives JSON Lines");
        }
    }
}
