package dev.toolcoach.coachnode;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.cluster.typed.Cluster;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.athletenode.AthleteNodeMain;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.taskjob.TrainingMode;
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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster a main-job test runs on: the coach node in this JVM, a tool node (with the given {@code toolcoach.tools}
 * config) and an athlete node of 4 athletes each in a JVM of its own. Closing ends all three, and what the nodes
 * started, whatever happened.
 */
final class JobCluster implements AutoCloseable {

    /** A recipe small enough for seconds: 2 layers of 32, 8 warm-up traces, one GRPO step of 2 groups of 4, 10 test questions. */
    static final String TINY_RECIPE = """
            {"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
             "maxMerges": 64, "minMergeCount": 8, "vocabularyExamples": 64, "warmupTraces": 8, "warmupEpochs": 1, "warmupBatch": 4, "warmupLr": 0.003,
             "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 1, "temperature": 1.0, "grpoLr": 0.002, "callWeight": 0.5,
             "lora": {"r": 4, "alpha": 8.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]}, "oversampling": 1,
             "maxTurns": 3, "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8, "testExamples": 10, "passAtKQueries": 2}""";
    static final int ATHLETES = 4;

    private final ActorSystem<SpawnProtocol.Command> coach;
    private final ChildJvm toolNode;
    private final ChildJvm athleteNode;
    private final int toolMetricsPort;

    private JobCluster(ActorSystem<SpawnProtocol.Command> coach, ChildJvm toolNode, ChildJvm athleteNode, int toolMetricsPort) {
        this.coach = coach;
        this.toolNode = toolNode;
        this.athleteNode = athleteNode;
        this.toolMetricsPort = toolMetricsPort;
    }

    /** Starts the three nodes; {@code toolsHocon} is the tool node's config file, its logs and the athletes' go to {@code dir}. */
    static JobCluster start(Path dir, String toolsHocon) throws Exception {
        Path conf = Files.writeString(dir.resolve("tool.conf"), toolsHocon);
        ActorSystem<SpawnProtocol.Command> coach = startCoach();
        ChildJvm toolNode = null;
        try {
            String seed = Cluster.get(coach).selfMember().address().toString();
            int toolMetrics = FreePorts.pick();
            toolNode = ChildJvm.start(ToolNodeMain.class, dir.resolve("tool-node.log"), "--config", conf.toString(),
                    "--seed", seed, "--port", "0", "--management-port", String.valueOf(toolMetrics));
            ChildJvm athletes = ChildJvm.start(AthleteNodeMain.class, dir.resolve("athlete-node.log"), "--seed", seed,
                    "--port", "0", "--management-port", String.valueOf(FreePorts.pick()), "--athletes", String.valueOf(ATHLETES));
            return new JobCluster(coach, toolNode, athletes, toolMetrics);
        } catch (Exception | Error e) {
            try (AutoCloseable c = () -> terminate(coach); ChildJvm t = toolNode) {
                throw e;
            }
        }
    }

    /** The tiny recipe with {@code fields} (JSON members, e.g. {@code "actionFormat": "code-act"}) added or replaced. */
    static ScratchRecipe tinyRecipe(String fields) throws IOException {
        ObjectMapper json = new ObjectMapper();
        @SuppressWarnings("unchecked")
        Map<String, Object> recipe = json.readValue(TINY_RECIPE, Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> extra = json.readValue("{" + fields + "}", Map.class);
        recipe.putAll(extra);
        return json.convertValue(recipe, ScratchRecipe.class);
    }

    /** The finance task's GRPO job writing to {@code run}, with the athletes of this cluster. */
    static TrainingJobSpec financeJob(Path run, ScratchRecipe recipe) {
        return TrainingJobSpec.builder().task("finance").dataDir(SharedData.require(".")).runDir(run).mode(TrainingMode.SYNC)
                .recipe(recipe).athletes(ATHLETES).build();
    }

    /** The tool node's JVM (what it starts are its children). */
    ProcessHandle toolNodeProcess() {
        return toolNode.process().toHandle();
    }

    JobNode jobNode() {
        return JobNode.attach(coach);
    }

    /** The tool node's {@code toolcoach_tool_calls_total} of {@code suite}, summed over its tools, by status. */
    Map<String, Double> callsByStatus(String suite) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + toolMetricsPort + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        Pattern line = Pattern.compile("toolcoach_tool_calls_total\\{status=\"([A-Z_]+)\",suite=\"" + Pattern.quote(suite)
                + "\",tool=\"[a-z_]+\"} ([0-9.E+]+)");
        Map<String, Double> byStatus = new TreeMap<>();
        text.lines().map(line::matcher).filter(Matcher::matches)
                .forEach(m -> byStatus.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum));
        return byStatus;
    }

    @Override
    public void close() throws Exception {
        // each is ended even if another fails to end
        try (AutoCloseable c = () -> terminate(coach); ChildJvm t = toolNode; ChildJvm a = athleteNode) {
            // closed in reverse: athletes, tool node, coach
        }
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

    private static void terminate(ActorSystem<?> coach) {
        coach.terminate();
        coach.getWhenTerminated().toCompletableFuture().join();
    }
}
