package dev.toolcoach.coachnode;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.cluster.typed.Cluster;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.toolcoach.athletenode.AthleteNodeMain;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;
import dev.toolcoach.testkit.ChildJvm;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.toolnode.ToolNodeMain;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main job on a cluster whose task's tools come from an MCP server: a tool node in a JVM of its own hosts the
 * finance tools through an MCP server it starts ({@code tool-node mcp --tool-suite finance}, a process of its own, over
 * stdio) and no built-in suite; athletes run in another JVM; the coach here runs the job with {@code tool_suite} naming
 * the hosted suite, so the oracle's texts, the warm-up, the evaluations and the GRPO rollouts all call the MCP server.
 */
class McpHostedJobTest {

    /** A recipe small enough for seconds: 2 layers of 32, 8 warm-up traces, one GRPO step of 2 groups of 4, 10 test questions. */
    private static final String TINY_RECIPE = """
            {"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
             "maxMerges": 64, "minMergeCount": 8, "warmupTraces": 8, "warmupEpochs": 1, "warmupBatch": 4, "warmupLr": 0.003,
             "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 1, "temperature": 1.0, "grpoLr": 0.002, "callWeight": 0.5,
             "lora": {"r": 4, "alpha": 8.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]}, "oversampling": 1,
             "maxTurns": 3, "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8, "testExamples": 10, "passAtKQueries": 2}""";
    private static final Set<String> FINANCE_TOOLS = Set.of("cagr", "compound_interest", "loan_payment", "npv");

    @Test
    void aFinanceJobTrainsOnTheToolsOfAnMcpServerTheToolNodeHosts(@TempDir Path dir) throws Exception {
        ActorSystem<SpawnProtocol.Command> coach = startCoach();
        String seed = Cluster.get(coach).selfMember().address().toString();
        List<String> server = ChildJvm.command(ToolNodeMain.class, "mcp", "--tool-suite", "finance");
        Path conf = Files.writeString(dir.resolve("tool.conf"), """
                toolcoach.tools {
                  suites = []
                  mcp.servers.finance-mcp { command = %s, args = %s }
                }
                """.formatted(ConfigValueFactory.fromAnyRef(server.get(0)).render(),
                ConfigValueFactory.fromIterable(server.subList(1, server.size())).render()));
        int toolMetrics = FreePorts.pick();
        try (ChildJvm toolNode = ChildJvm.start(ToolNodeMain.class, dir.resolve("tool-node.log"), "--config", conf.toString(),
                "--seed", seed, "--port", "0", "--management-port", String.valueOf(toolMetrics));
             ChildJvm athletes = ChildJvm.start(AthleteNodeMain.class, dir.resolve("athlete-node.log"), "--seed", seed,
                     "--port", "0", "--management-port", String.valueOf(FreePorts.pick()), "--athletes", "4")) {
            Path run = dir.resolve("runs/finance-mcp");
            TaskTrainingJob.Options options = new TaskTrainingJob.Options("finance", SharedData.require("."), run, "grpo", true,
                    new ObjectMapper().readValue(TINY_RECIPE, ScratchRecipe.class), 4, 1, 5).withToolSuite("finance-mcp");
            List<String> phases = new ArrayList<>();
            TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.of(JobNode.attach(coach)), phases::add);

            assertEquals(List.of("model", "evaluate", "warm-up", "evaluate", "train", "save", "evaluate"), phases);
            assertEquals(List.of("before_training", "after_warmup", "after_grpo"), List.copyOf(summary.evaluations().keySet()));
            assertEquals(List.of(1L), RunRecorder.read(run).stream().map(StepLine::step).toList(), "one GRPO step");
            assertEquals(2 * 4, TraceJson.read(run.resolve("traces.jsonl")).items().size(), "the athletes' rollouts");
            Map<?, ?> config = new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class);
            assertEquals("finance-mcp", config.get("tool_suite"));
            // the tool node starts no process but its MCP server (one; a restart may briefly show the one it replaces)
            List<ProcessHandle> started = toolNode.process().children().filter(ProcessHandle::isAlive).toList();
            assertTrue(!started.isEmpty() && started.stream().allMatch(p -> p.info().command().orElse("").endsWith("java")),
                    "the tool node runs the MCP server: " + started);

            // the warm-up's oracle ran on the coach node against the tool node's only suite, the MCP server's
            List<Trace> oracle = new ArrayList<>();
            try (var files = Files.list(run.resolve("teacher-cache"))) {
                for (Path f : files.toList()) oracle.addAll(TraceJson.read(f).items());
            }
            List<ToolResult> results = oracle.stream().flatMap(t -> t.turns().stream()).flatMap(t -> t.actionOutput().stream()).toList();
            String shown = results.stream().map(r -> r.call().name() + " " + r.status() + " " + r.text()).collect(Collectors.joining("\n"));
            assertTrue(results.stream().allMatch(r -> FINANCE_TOOLS.contains(r.call().name())), shown);
            // lossless under the oracle's load (every training example's calls at once over the one stdio session)
            assertEquals(List.of(), results.stream().filter(r -> r.status() != ToolResult.Status.OK)
                    .map(r -> r.call().name() + " " + r.status() + " " + r.text()).toList());
            // the tool node counts what its only suite answered: at least one call per training example (the oracle's texts)
            Map<String, Double> calls = callsByStatus(toolMetrics);
            assertTrue(calls.getOrDefault("OK", 0.0) >= ((Number) config.get("train_examples")).doubleValue(), "calls by status: " + calls);
            assertEquals(0.0, calls.getOrDefault("TIMEOUT", 0.0) + calls.getOrDefault("UNAVAILABLE", 0.0), "calls by status: " + calls);
        } finally {
            coach.terminate();
            coach.getWhenTerminated().toCompletableFuture().join();
        }
    }

    /** The tool node's {@code toolcoach_tool_calls_total} of suite finance-mcp, summed over its tools, by status. */
    private static Map<String, Double> callsByStatus(int managementPort) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        Pattern line = Pattern.compile("toolcoach_tool_calls_total\\{status=\"([A-Z_]+)\",suite=\"finance-mcp\",tool=\"[a-z_]+\"} ([0-9.E+]+)");
        Map<String, Double> byStatus = new java.util.TreeMap<>();
        text.lines().map(line::matcher).filter(Matcher::matches)
                .forEach(m -> byStatus.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum));
        return byStatus;
    }

    /** The coach node in this JVM; the job's oracle texts send every training example's calls at once, hence the long deadline. */
    private static ActorSystem<SpawnProtocol.Command> startCoach() {
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(List.of()), Optional.of("127.0.0.1"), Optional.of(FreePorts.pick()), Optional.empty(), Optional.empty());
        Config config = ConfigFactory.parseMap(Map.of("akka.coordinated-shutdown.run-by-jvm-shutdown-hook", "off",
                        "akka.loglevel", "WARNING", "toolcoach.tools.client.call-deadline", "120s"))
                .withFallback(NodeConfigLoader.load(NodeProgram.COACH, overrides, Map.of()));
        @SuppressWarnings("unchecked")
        ActorSystem<SpawnProtocol.Command> system = (ActorSystem<SpawnProtocol.Command>) NodeLauncher.start(config,
                NodeSettings.fromConfig(config));
        return system;
    }
}
