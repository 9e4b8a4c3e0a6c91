package dev.toolcoach.cluster.toolserver;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ExecuteToolCalls;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.GetToolSpecs;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ReleaseTrajectory;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolSpecs;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.sql.SqlTools;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** One tool server in one actor system; every message still crosses the serializers (serialize-messages = on). */
class ToolServerActorTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static List<ToolResult> execute(ActorRef<ToolServerProtocol.Command> server, String trajectory, ToolCall... calls) {
        TestProbe<ToolCallResults> replies = testKit.createTestProbe();
        server.tell(new ExecuteToolCalls(trajectory, List.of(calls), replies.ref()));
        ToolCallResults answer = replies.receiveMessage(DEADLINE);
        assertEquals(trajectory, answer.trajectoryId());
        return answer.results();
    }

    /** The open-trajectories gauge of a suite as /metrics would show it, empty once the suite is no longer exported. */
    private static Optional<Double> openTrajectories(String suite) {
        for (MetricSnapshot metric : ToolServerMetrics.get(testKit.system()).collect()) {
            if (metric instanceof GaugeSnapshot gauge && metric.getMetadata().getName().equals("toolcoach_tool_trajectories_open")) {
                return gauge.getDataPoints().stream().filter(p -> suite.equals(p.getLabels().get("suite")))
                        .map(GaugeSnapshot.GaugeDataPointSnapshot::getValue).findFirst();
            }
        }
        return Optional.empty();
    }

    @Test
    void sqlServerAnswersReleasesAndClosesItsSuiteWhenStopped() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        BuiltinSuites.Hosted sql = BuiltinSuites.open(SqlTools.SUITE, BuiltinSuites.Options.defaults());
        BuiltinSuites.Hosted watched = new BuiltinSuites.Hosted(sql.suite(), () -> {
            sql.close();
            closed.set(true);
        });
        ActorRef<ToolServerProtocol.Command> server = testKit.spawn(ToolServerActor.create(watched, ExecutorSettings.defaults()));

        TestProbe<ToolSpecs> specs = testKit.createTestProbe();
        server.tell(new GetToolSpecs(specs.ref()));
        assertEquals(List.of("list_tables", "run_sql"), specs.receiveMessage(DEADLINE).specs().stream().map(s -> s.name()).sorted().toList());

        List<ToolResult> results = execute(server, "t-1", new ToolCall("list_tables", Map.of()),
                new ToolCall("run_sql", Map.of("query", "DELETE FROM employees")));
        assertEquals(ToolResult.Status.OK, results.get(0).status(), results.get(0).toString());
        assertEquals(ToolResult.Status.ERROR, results.get(1).status(), "writes are refused: " + results.get(1));
        assertEquals(Optional.of(1.0), openTrajectories(SqlTools.SUITE));

        server.tell(new ReleaseTrajectory("t-1"));
        TestProbe<Void> probe = testKit.createTestProbe();
        probe.awaitAssert(DEADLINE, () -> {
            assertEquals(Optional.of(0.0), openTrajectories(SqlTools.SUITE));
            return null;
        });

        testKit.stop(server, DEADLINE);
        assertTrue(closed.get(), "the suite's database is closed with its server");
        assertEquals(Optional.empty(), openTrajectories(SqlTools.SUITE), "a stopped server is no longer exported");
    }

    @Test
    void addedLatencyHoldsEveryAnswerBack() throws Exception {
        BuiltinSuites.Hosted sql = BuiltinSuites.open(SqlTools.SUITE, BuiltinSuites.Options.defaults());
        ActorRef<ToolServerProtocol.Command> server = testKit.spawn(ToolServerActor.create(sql, ExecutorSettings.defaults(),
                new AddedLatency(Duration.ofMillis(150), Duration.ofMillis(300))));
        long start = System.nanoTime();
        List<ToolResult> results = execute(server, "t-3", new ToolCall("list_tables", Map.of()), new ToolCall("list_tables", Map.of()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(List.of(ToolResult.Status.OK, ToolResult.Status.OK), results.stream().map(ToolResult::status).toList());
        assertTrue(millis >= 150, "answered after " + millis + " ms");
        testKit.stop(server, DEADLINE);
    }

    @Test
    void emailServerSearchesTheEnronMessages() throws Exception {
        String shared = System.getProperty("toolcoach.shared.data", "");
        Path csv = Path.of(shared, "enron", "emails_sample.csv");
        assumeTrue(!shared.isEmpty() && Files.isRegularFile(csv),
                "skipped: the Enron sample is not at " + csv.toAbsolutePath() + " (set -Dtoolcoach.shared.data)");
        ToolHostSettings settings = new ToolHostSettings(List.of("email"), BuiltinSuites.Options.defaults().withMailboxes(List.of(csv)),
                ExecutorSettings.defaults()).checkHostable();
        List<BuiltinSuites.Hosted> hosted = HostedSuites.open(settings);
        ActorRef<ToolServerProtocol.Command> server = testKit.spawn(ToolServerActor.create(hosted.get(0), settings.executor()));

        ToolResult search = execute(server, "t-2", new ToolCall("search_emails", Map.of("keywords", "enron", "limit", 3))).get(0);
        assertEquals(ToolResult.Status.OK, search.status(), search.toString());
        assertFalse(search.text().isBlank());
        List<?> hits = assertInstanceOf(List.class, search.structured(), "structured hits arrive as a JSON array");
        assertEquals(3, hits.size());
        hits.forEach(hit -> assertInstanceOf(String.class, assertInstanceOf(Map.class, hit).get("message_id"), hit.toString()));
        testKit.stop(server, DEADLINE);
    }

    /** A finance composite as a definition file: the future value, then the growth rate up to it. */
    static final String GROWTH_SKILL = """
            {"name": "compound_interest_then_cagr", "description": "Future value, then the CAGR up to it.", "suite": "finance",
             "status": "pending",
             "parameters": {"type": "object", "properties": {"principal": {"type": "number"}, "annual_rate": {"type": "number"},
               "years": {"type": "number"}}, "required": ["principal", "annual_rate", "years"]},
             "steps": [
               {"tool": "compound_interest", "arguments": {"principal": {"param": "principal"},
                 "annual_rate": {"param": "annual_rate"}, "years": {"param": "years"}}},
               {"tool": "cagr", "arguments": {"start_value": {"param": "principal"},
                 "end_value": {"from_step": 1, "pointer": "/future_value"}, "years": {"param": "years"}}}],
             "provenance": {"source": "written by hand", "trajectories": [], "support": 0, "novelty": 1.0, "min_length": 2,
               "min_support": 3, "validated": 0, "created_at": "2026-11-24T00:00:00Z"}}
            """;

    @Test
    void aSkillApprovedWhileTheServerRunsIsRegisteredAndCalledLikeAnyTool(@org.junit.jupiter.api.io.TempDir Path skills)
            throws Exception {
        Path folder = Files.createDirectories(skills.resolve("compound_interest_then_cagr"));
        Files.writeString(folder.resolve("skill.json"), GROWTH_SKILL);
        ToolHostSettings settings = new ToolHostSettings(List.of("finance"), BuiltinSuites.Options.defaults().withSkills(skills),
                ExecutorSettings.defaults(), AddedLatency.NONE, Duration.ofMillis(50), List.of(), List.of(), Map.of()).checkHostable();
        List<BuiltinSuites.Hosted> hosted = HostedSuites.open(settings);
        ActorRef<ToolServerProtocol.Command> server = testKit.spawn(ToolServerActor.create(hosted.get(0), settings));
        ToolCall growth = new ToolCall("compound_interest_then_cagr", Map.of("principal", 1000, "annual_rate", 0.05, "years", 10));
        assertEquals(ToolResult.Status.UNKNOWN_TOOL, execute(server, "t-4", growth).get(0).status(), "pending: not registered");

        new dev.toolcoach.tools.skills.SkillLibrary(skills).approve("compound_interest_then_cagr");
        TestProbe<ToolSpecs> specs = testKit.createTestProbe();
        specs.awaitAssert(DEADLINE, () -> {
            server.tell(new GetToolSpecs(specs.ref()));
            assertTrue(specs.receiveMessage(DEADLINE).specs().stream().anyMatch(s -> s.name().equals(growth.name())));
            return null;
        });
        List<ToolResult> results = execute(server, "t-4", growth, new ToolCall("cagr",
                Map.of("start_value", 1000, "end_value", 1628.89, "years", 10)));
        assertEquals(ToolResult.Status.OK, results.get(0).status(), results.get(0).toString());
        assertEquals(results.get(1).text(), results.get(0).text(), "the composite gives what the two calls give");
        testKit.stop(server, DEADLINE);
    }

    @Test
    void aBrokenSkillDefinitionStopsTheNodeWithOneLine(@org.junit.jupiter.api.io.TempDir Path skills) throws Exception {
        Path folder = Files.createDirectories(skills.resolve("compound_interest_then_cagr"));
        Files.writeString(folder.resolve("skill.json"), GROWTH_SKILL.replace("\"from_step\": 1", "\"from_step\": 2"));
        ToolHostSettings settings = new ToolHostSettings(List.of("finance"), BuiltinSuites.Options.defaults().withSkills(skills),
                ExecutorSettings.defaults()).checkHostable();
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(dev.toolcoach.cluster.node.NodeStartException.class,
                () -> HostedSuites.open(settings));
        assertEquals("cannot open tool suite 'finance': " + folder.resolve("skill.json")
                + ": field steps[1].arguments.end_value.from_step: 2 is not an earlier step than 2", e.getMessage());
    }
}
