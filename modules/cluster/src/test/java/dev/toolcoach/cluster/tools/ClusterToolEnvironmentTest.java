package dev.toolcoach.cluster.tools;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.cluster.testing.PrometheusSamples;
import dev.toolcoach.cluster.toolserver.ToolServerActor;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An athlete-side actor system and a real tool node (started by the node launcher, with its management
 * server) on loopback: every tool call crosses Artery and the CBOR serializer both ways.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterToolEnvironmentTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final List<String> SUITES = List.of("arithmetic", "finance");
    /** The slow suite's server gives up on a call after this long. */
    private static final Duration SERVER_CALL_TIMEOUT = Duration.ofMillis(500);

    private final HttpClient http = HttpClient.newHttpClient();
    private ActorSystem<?> athlete;
    private ActorSystem<?> tool;
    private int toolManagementPort;
    private ClusterToolEnvironment tools;
    /** Successful add calls made so far, to check the exported count exactly. */
    private int addCallsOk;

    @BeforeAll
    void start() {
        Config athleteConfig = testConfig(NodeProgram.ATHLETE, List.of(), FreePorts.pick());
        athlete = ActorSystem.create(Behaviors.empty(), NodeConfigLoader.SYSTEM_NAME, athleteConfig);
        Cluster.get(athlete).manager().tell(Join.create(Cluster.get(athlete).selfMember().address()));
        tool = startToolNode();
        tools = connect(new ClusterToolSettings(Duration.ofSeconds(15), DEADLINE), List.of("arithmetic", "finance", SlowTools.SUITE));
    }

    @AfterAll
    void stop() {
        if (tools != null) tools.close();
        Stream.of(tool, athlete).filter(Objects::nonNull).forEach(ActorSystem::terminate);
        Stream.of(tool, athlete).filter(Objects::nonNull).forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
    }

    private static Config testConfig(NodeProgram program, List<String> seeds, int managementPort) {
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"),
                Optional.of(0), Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(managementPort),
                Optional.empty(), Optional.of(SUITES));
        return ConfigFactory.parseResources("application-test.conf")
                .withFallback(NodeConfigLoader.load(program, overrides, Map.of()));
    }

    /** A tool node hosting the configured suites, plus a slow suite whose server times calls out quickly. */
    private ActorSystem<?> startToolNode() {
        toolManagementPort = FreePorts.pick();
        Config config = testConfig(NodeProgram.TOOL, List.of(Cluster.get(athlete).selfMember().address().toString()),
                toolManagementPort);
        ActorSystem<?> node = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        node.systemActorOf(ToolServerActor.create(new BuiltinSuites.Hosted(SlowTools.suite(), () -> { }),
                ExecutorSettings.defaults().withCallTimeout(SERVER_CALL_TIMEOUT)), "tools-slow", Props.empty());
        return node;
    }

    private ClusterToolEnvironment connect(ClusterToolSettings settings, List<String> suites) {
        return ClusterToolEnvironment.connect(athlete, suites, settings).toCompletableFuture()
                .orTimeout(DEADLINE.toSeconds() + 5, TimeUnit.SECONDS).join();
    }

    private static ToolCall call(String name, Map<String, Object> arguments) {
        return new ToolCall(name, arguments);
    }

    private static List<ToolResult> await(List<CompletionStage<ToolResult>> stages) {
        return stages.stream().map(s -> s.toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join()).toList();
    }

    private ToolResult add(ClusterToolEnvironment environment, String trajectory, int a, int b) {
        return await(environment.execute(trajectory, List.of(call("add", Map.of("a", a, "b", b))))).get(0);
    }

    @Test
    @Order(1)
    void specsOfEverySuiteAreFetchedFromTheServers() {
        assertEquals(Set.of("add", "subtract", "multiply", "divide", "compound_interest", "loan_payment", "cagr", "npv", "pause"),
                Set.copyOf(tools.specs().stream().map(ToolSpec::name).toList()));
        ToolSpec add = tools.specs().stream().filter(s -> s.name().equals("add")).findFirst().orElseThrow();
        assertEquals(List.of("a", "b"), add.required(), "the JSON schema survives CBOR");
    }

    @Test
    @Order(1)
    void connectingToASuiteNobodyHostsFailsNamingIt() {
        CompletableFuture<ClusterToolEnvironment> connecting = ClusterToolEnvironment.connect(athlete, List.of("arithmetic", "sql"),
                new ClusterToolSettings(Duration.ofSeconds(1), Duration.ofMillis(300))).toCompletableFuture();
        CompletionException failed = assertThrows(CompletionException.class,
                () -> connecting.orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join());
        assertEquals("tool suites [arithmetic, sql] not ready within 300 ms: no server hosts [sql]", failed.getCause().getMessage());
    }

    @Test
    @Order(2)
    void concurrentTurnsGetCorrectResultsInCallOrder() {
        SplittableRandom random = new SplittableRandom(7);
        int trajectories = 24;
        List<List<ToolCall>> turns = new ArrayList<>();
        List<List<CompletionStage<ToolResult>>> pending = new ArrayList<>();
        for (int t = 0; t < trajectories; t++) {
            BigDecimal a = BigDecimal.valueOf(random.nextLong(-1_000_000, 1_000_000), 2);
            BigDecimal b = BigDecimal.valueOf(random.nextLong(1, 1_000_000), 3);
            List<ToolCall> turn = List.of(
                    call("add", Map.of("a", a.doubleValue(), "b", b.doubleValue())),
                    call("compound_interest", Map.of("principal", 1000, "annual_rate", 0.05, "years", 10)),
                    call("multiply", Map.of("a", a.doubleValue(), "b", b.doubleValue())));
            turns.add(turn);
            pending.add(tools.execute("trajectory-" + t, turn)); // every turn is in flight before any is awaited
        }
        for (int t = 0; t < trajectories; t++) {
            List<ToolResult> results = await(pending.get(t));
            List<ToolCall> turn = turns.get(t);
            BigDecimal a = new BigDecimal(turn.get(0).arguments().get("a").toString());
            BigDecimal b = new BigDecimal(turn.get(0).arguments().get("b").toString());
            assertEquals(turn, results.stream().map(ToolResult::call).toList(), "results come back in call order");
            results.forEach(r -> assertEquals(ToolResult.Status.OK, r.status(), r.toString()));
            assertEquals(0, a.add(b).compareTo(new BigDecimal(results.get(0).text())), results.get(0).text());
            assertEquals(0, a.multiply(b).compareTo(new BigDecimal(results.get(2).text())), results.get(2).text());
            Map<?, ?> interest = (Map<?, ?>) results.get(1).structured();
            assertEquals(0, new BigDecimal("1628.89").compareTo(new BigDecimal(interest.get("future_value").toString())),
                    "structured output arrives as a JSON object: " + interest);
        }
        addCallsOk += trajectories;
    }

    @Test
    @Order(3)
    void badCallsBecomeResultsTheModelSees() {
        List<ToolResult> results = await(tools.execute("bad", List.of(
                call("divide", Map.of("a", 1, "b", 0)), call("add", Map.of("a", "x")), call("launch", Map.of()))));
        assertEquals(ToolResult.Status.ERROR, results.get(0).status());
        assertTrue(results.get(0).text().contains("division by zero"), results.get(0).text());
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, results.get(1).status());
        assertEquals(ToolResult.Status.UNKNOWN_TOOL, results.get(2).status());
    }

    @Test
    @Order(4)
    void aHangingToolBecomesTimeoutOnTheServerOrAtTheClientsDeadline() {
        ToolResult serverGaveUp = await(tools.execute("slow-1", List.of(call("pause", Map.of("millis", 60_000))))).get(0);
        assertEquals(ToolResult.Status.TIMEOUT, serverGaveUp.status(), serverGaveUp.toString());
        assertTrue(serverGaveUp.text().contains("did not finish within " + SERVER_CALL_TIMEOUT.toMillis() + " ms"));

        try (ClusterToolEnvironment impatient = connect(new ClusterToolSettings(Duration.ofMillis(200), DEADLINE),
                List.of(SlowTools.SUITE))) {
            ToolResult clientGaveUp = await(impatient.execute("slow-2", List.of(call("pause", Map.of("millis", 400))))).get(0);
            assertEquals(ToolResult.Status.TIMEOUT, clientGaveUp.status(), clientGaveUp.toString());
            assertTrue(clientGaveUp.text().contains("no answer from the tool server of suite 'slow' within 200 ms"),
                    clientGaveUp.text());
        }
    }

    @Test
    @Order(5)
    void anAgentLoopCompletesATwoCallArithmeticTaskOverTheCluster() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "<think>first the sum</think><tool_call>[{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3.5}}]</tool_call>",
                "<think>then times 4</think><tool_call>[{\"name\": \"multiply\", \"arguments\": {\"a\": 5.5, \"b\": 4}}]</tool_call>",
                "<think>done</think><answer>22</answer>"));
        AgentLoop loop = new AgentLoop(tokenizer, new ChatMlFormat(), model, tools,
                AgentConfig.defaults().withLimits(6, 8192).withTools(Duration.ofSeconds(20), 4000));
        Trace trace = loop.run(new RolloutRequest("rollout-1", "group-1", "query-1", "What is (2 + 3.5) * 4?", Map.of()))
                .toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join();

        assertEquals(Termination.ANSWER, trace.termination(), trace.toString());
        assertEquals("22", trace.finalAnswer());
        assertEquals(3, trace.turns().size());
        assertEquals("5.5", trace.turns().get(0).actionOutput().get(0).text());
        assertEquals("22", trace.turns().get(1).actionOutput().get(0).text());
        assertTrue(loop.systemPrompt().contains("compound_interest"), "the prompt offers the tools fetched from the servers");
        addCallsOk += 1;
    }

    @Test
    @Order(6)
    void metricsEndpointShowsToolCallsByToolAndStatus() {
        Map<String, Double> samples = PrometheusSamples.parse(get(toolManagementPort, "/metrics"));
        assertEquals(addCallsOk, samples.get("toolcoach_tool_calls_total{status=\"OK\",suite=\"arithmetic\",tool=\"add\"}"),
                "every successful add so far");
        assertEquals(1.0, samples.get("toolcoach_tool_calls_total{status=\"ERROR\",suite=\"arithmetic\",tool=\"divide\"}"));
        assertEquals(1.0, samples.get("toolcoach_tool_calls_total{status=\"TIMEOUT\",suite=\"slow\",tool=\"pause\"}"));
        assertEquals((double) addCallsOk + 1, samples.get("toolcoach_tool_call_latency_seconds_count{suite=\"arithmetic\",tool=\"add\"}"),
                "the histogram counts the invalid call too");
        assertEquals(0.0, samples.get("toolcoach_tool_calls_running{suite=\"finance\"}"));
        assertTrue(samples.containsKey("toolcoach_tool_trajectories_open{suite=\"arithmetic\"}"));
    }

    @Test
    @Order(7)
    void callsFailCleanlyWhileNoToolNodeIsUpAndSucceedWhenOneJoinsAgain() {
        tool.terminate(); // coordinated shutdown: the node leaves the cluster and its servers stop
        tool.getWhenTerminated().toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join();

        ToolResult meanwhile = add(tools, "after-stop", 1, 2);
        assertTrue(Set.of(ToolResult.Status.UNAVAILABLE, ToolResult.Status.TIMEOUT).contains(meanwhile.status()), meanwhile.toString());
        TestProbe<Void> probe = TestProbe.create(athlete);
        probe.awaitAssert(DEADLINE, () -> {
            ToolResult result = add(tools, "no-server", 1, 2);
            assertEquals(ToolResult.Status.UNAVAILABLE, result.status(), result.toString());
            assertEquals("Error: no tool server of suite 'arithmetic' is available", result.text());
            return null;
        });

        tool = startToolNode();
        probe.awaitAssert(DEADLINE, () -> {
            ToolResult result = add(tools, "back", 20, 22);
            assertEquals(ToolResult.Status.OK, result.status(), result.toString());
            assertEquals("42", result.text());
            return null;
        });
    }

    private String get(int port, String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), path);
            return response.body();
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " on port " + port + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
