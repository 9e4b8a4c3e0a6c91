package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigValueFactory;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.testkit.ChildJvm;
import dev.toolcoach.testkit.ToolCallingModel;
import dev.toolcoach.toolnode.ToolNodeMain;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main job on a cluster of three JVMs (the coach here, a tool node and an athlete node in JVMs of their own) with
 * each kind of tool the cluster path offers beyond the built-in suites' JSON calls: an MCP server the tool node starts,
 * a LangChain4j tool class the tool node hosts by name, and code actions (CodeAct) whose programs run in the sandbox
 * and call the tool node.
 */
class HostedToolKindsJobTest {

    private static final Set<String> FINANCE_TOOLS = Set.of("cagr", "compound_interest", "loan_payment", "npv");
    private static final List<String> PHASES = List.of("model", "evaluate", "warm-up", "evaluate", "train", "save", "evaluate");

    /**
     * The tool node hosts the finance tools through an MCP server it starts ({@code tool-node mcp --tool-suite finance},
     * a process of its own, over stdio) and no built-in suite, so the oracle's texts, the warm-up, the evaluations and
     * the GRPO rollouts all call the MCP server: thousands of calls, 64 at a time, over its one session, each answered.
     */
    @Test
    void aFinanceJobTrainsOnTheToolsOfAnMcpServerTheToolNodeHosts(@TempDir Path dir) throws Exception {
        List<String> server = ChildJvm.command(ToolNodeMain.class, "mcp", "--tool-suite", "finance");
        try (JobCluster cluster = JobCluster.start(dir, """
                toolcoach.tools {
                  suites = []
                  mcp.servers.finance-mcp { command = %s, args = %s }
                }
                """.formatted(ConfigValueFactory.fromAnyRef(server.get(0)).render(),
                ConfigValueFactory.fromIterable(server.subList(1, server.size())).render()))) {
            Map<String, Double> calls = trainsOnHostedSuite(cluster, dir, "finance-mcp");
            // the tool node starts no process but its MCP server (one; a restart may briefly show the one it replaces)
            List<ProcessHandle> started = cluster.toolNodeProcess().children().filter(ProcessHandle::isAlive).toList();
            assertTrue(!started.isEmpty() && started.stream().allMatch(p -> p.info().command().orElse("").endsWith("java")),
                    "the tool node runs the MCP server: " + started);
            // lossless under the oracle's load (thousands of calls, 64 at a time, over the one stdio session)
            assertEquals(0.0, calls.getOrDefault("TIMEOUT", 0.0) + calls.getOrDefault("UNAVAILABLE", 0.0), "calls by status: " + calls);
        }
    }

    @Test
    void aFinanceJobTrainsOnALangChain4jToolClassTheToolNodeHostsByName(@TempDir Path dir) throws Exception {
        try (JobCluster cluster = JobCluster.start(dir, """
                toolcoach.tools {
                  suites = []
                  classes { finance-lc4j = "%s" }
                }
                """.formatted(LangChain4jFinanceTools.class.getName()))) {
            trainsOnHostedSuite(cluster, dir, "finance-lc4j");
        }
    }

    /**
     * Runs the finance job with {@code suite}, the tool node's only suite, as its tools, and checks what every hosted kind
     * must do: the job's phases, one GRPO step of the athletes' rollouts, the oracle's texts (run on the coach node
     * against that suite) each answered OK by a finance tool, and at least one call per example the vocabulary's oracle
     * texts came from counted by the tool node for the suite; returns those counts by status.
     */
    /** The training examples whose oracle rollouts (each at least one tool call) gave the vocabulary its texts. */
    private static double vocabularyExamples(Map<?, ?> config) {
        return ((Number) ((Map<?, ?>) config.get("recipe")).get("vocabularyExamples")).doubleValue();
    }

    private static Map<String, Double> trainsOnHostedSuite(JobCluster cluster, Path dir, String suite) throws Exception {
        Path run = dir.resolve("runs/" + suite);
        TrainingJobSpec options = JobCluster.financeJob(run, JobCluster.tinyRecipe("")).toBuilder().toolSuite(suite).build();
        List<String> phases = new ArrayList<>();
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.of(cluster.jobNode()), phases::add);

        assertEquals(PHASES, phases);
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), List.copyOf(summary.evaluations().keySet()));
        assertEquals(List.of(1L), RunRecorder.read(run).stream().map(StepLine::step).toList(), "one GRPO step");
        assertEquals(2 * 4, TraceJson.read(run.resolve("traces.jsonl")).items().size(), "the athletes' rollouts");
        Map<?, ?> config = new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class);
        assertEquals(suite, config.get("tool_suite"));

        List<ToolResult> results = oracleResults(run);
        String shown = results.stream().filter(r -> r.status() != ToolResult.Status.OK || !FINANCE_TOOLS.contains(r.call().name()))
                .map(r -> r.call().name() + " " + r.status() + " " + r.text()).limit(20).collect(Collectors.joining("\n"));
        assertTrue(!results.isEmpty() && shown.isEmpty(), shown);
        Map<String, Double> calls = cluster.callsByStatus(suite);
        assertTrue(calls.getOrDefault("OK", 0.0) >= vocabularyExamples(config), "calls by status: " + calls);
        return calls;
    }

    /**
     * Code actions on one cluster, two ways. First the recipe's {@code code-act} format with the tool node's built-in
     * finance suite as the job's tools, so every program the job runs (the oracle texts', the warm-up's and the
     * evaluations' on the coach node, the rollouts' on the athletes) calls the tool node from the sandbox of the JVM
     * that runs it. Then a model that writes one program, so each athlete rollout's program runs in the sandbox of the
     * athlete node's JVM and its call reaches the tool node's JVM.
     */
    @Test
    void codeActionsRunInTheSandboxOfTheJvmThatRunsThemAndCallTheToolNode(@TempDir Path dir) throws Exception {
        try (JobCluster cluster = JobCluster.start(dir, "toolcoach.tools.suites = [finance]")) {
            aCodeActingFinanceJob(cluster, dir);
            athletesRunningOneProgram(cluster, dir);
        }
    }

    @SuppressWarnings("unchecked")
    private static void aCodeActingFinanceJob(JobCluster cluster, Path dir) throws Exception {
        Path run = dir.resolve("runs/finance-code-act");
        // the code-act system prompt (the tools as Python functions) is about 800 tokens of the tiny vocabulary
        TrainingJobSpec options = JobCluster.financeJob(run, JobCluster.tinyRecipe("""
                "actionFormat": "code-act", "maxTotalTokens": 1536,
                "shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 1536}""")).toBuilder().toolSuite("finance").build();
        List<String> phases = new ArrayList<>();
        TaskTrainingJob.run(options, Optional.of(cluster.jobNode()), phases::add);

        assertEquals(PHASES, phases);
        assertEquals(List.of(1L), RunRecorder.read(run).stream().map(StepLine::step).toList(), "one GRPO step");
        List<Trace> rollouts = TraceJson.read(run.resolve("traces.jsonl")).items();
        assertEquals(2 * 4, rollouts.size(), "the athletes' rollouts");
        for (Trace rollout : rollouts) {
            assertTrue(rollout.turns().get(0).promptForModel().contains("def compound_interest("),
                    "the athletes offer the tools as Python functions: " + rollout.rolloutId());
        }

        // the oracle's actions are programs that ran in the sandbox, each call in them answered by the tool node
        List<ToolResult> results = oracleResults(run);
        assertTrue(!results.isEmpty());
        for (ToolResult program : results) {
            assertEquals("python", program.call().name());
            assertEquals(ToolResult.Status.OK, program.status(), program.text());
            Map<String, Object> log = (Map<String, Object>) program.structured();
            assertEquals(program.call().arguments().get("code"), log.get("code"));
            assertEquals(0, log.get("return_code"));
            assertEquals(program.text(), ((String) log.get("stdout")).strip());
            List<Map<String, Object>> calls = (List<Map<String, Object>>) log.get("tool_calls");
            assertTrue(!calls.isEmpty() && calls.stream().allMatch(c -> FINANCE_TOOLS.contains(c.get("name"))
                    && "OK".equals(c.get("status"))), String.valueOf(calls));
        }
        Map<?, ?> config = new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class);
        Map<String, Double> calls = cluster.callsByStatus("finance");
        assertTrue(calls.getOrDefault("OK", 0.0) >= vocabularyExamples(config), "calls by status: " + calls);
    }

    @SuppressWarnings("unchecked")
    private static void athletesRunningOneProgram(JobCluster cluster, Path dir) throws Exception {
        Map<String, Double> before = cluster.callsByStatus("finance");
        String program = "print(cagr(start_value=100, end_value=200, years=5))";
        Path model = ToolCallingModel.write(dir.resolve("model"), "<code>\n" + program + "\n</code>");
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(2).athletes(JobCluster.ATHLETES)
                .rollouts(new RolloutSettings(1.0, 8, 2, 4096)).checkpointEvery(100)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        Reward firstOfGroup = Reward.perTrace("first-of-group", (trace, example) -> trace.rolloutId().endsWith("/0") ? 1 : 0);
        List<StepReport> reports = new CopyOnWriteArrayList<>();
        TrainingRun.Result result = TrainingRun.run(TrainingRun.Spec.builder().config(config).modelDir(model)
                .actionFormat(ActionFormat.CODE_ACT).suites(List.of("finance")).dataset(FinanceTask.create(6, 3).examples()).steps(1)
                .reward(firstOfGroup).checkpointDir(dir.resolve("checkpoints")).jobId("athletes-code-act").build(),
                cluster.jobNode(), reports::add);

        assertEquals(1, result.adapter().version(), "one GRPO step");
        List<Trace> traces = reports.get(0).scored().stream().flatMap(g -> g.traces().stream()).map(t -> t.trace()).toList();
        assertEquals(4, traces.size());
        for (Trace trace : traces) {
            ToolResult run = trace.turns().get(0).actionOutput().get(0);
            assertEquals(ToolResult.Status.OK, run.status(), run.text());
            assertEquals("0.148698", run.text());
            Map<String, Object> log = (Map<String, Object>) run.structured();
            assertEquals(program, log.get("code"));
            assertEquals(0, log.get("return_code"));
            List<Map<String, Object>> calls = (List<Map<String, Object>>) log.get("tool_calls");
            assertEquals(List.of("cagr"), calls.stream().map(c -> c.get("name")).toList());
            assertEquals("OK", calls.get(0).get("status"));
        }
        // every program's call, two turns a rollout, was answered by the tool node, and none failed
        Map<String, Double> calls = cluster.callsByStatus("finance");
        calls.replaceAll((status, n) -> n - before.getOrDefault(status, 0.0));
        calls.values().removeIf(n -> n == 0);
        assertEquals(Set.of("OK"), calls.keySet(), "calls by status since the first job: " + calls);
        assertTrue(calls.get("OK") >= 2 * traces.size(), "calls by status since the first job: " + calls);
    }

    /** The results in the oracle's texts (the warm-up's teacher cache). */
    private static List<ToolResult> oracleResults(Path run) throws Exception {
        List<Trace> oracle = new ArrayList<>();
        try (var files = Files.list(run.resolve("teacher-cache"))) {
            for (Path f : files.toList()) oracle.addAll(TraceJson.read(f).items());
        }
        return oracle.stream().flatMap(t -> t.turns().stream()).flatMap(t -> t.actionOutput().stream()).toList();
    }
}
