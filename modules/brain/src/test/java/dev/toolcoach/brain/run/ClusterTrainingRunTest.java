package dev.toolcoach.brain.run;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.cluster.typed.Cluster;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.policy.TinyChatModel;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.tools.BuiltinSuites;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs on a cluster of three nodes (three actor systems on loopback): the job runs on the coach node,
 * the athlete node finds it through its announcer and rolls out against the tool node's servers. Two
 * jobs one after the other on the same long-lived nodes: the athletes release the first and join the second.
 */
class ClusterTrainingRunTest {
    private static final Reward LETTERS = Reward.perTrace("letters", (trace, example) -> {
        String text = trace.turns().isEmpty() ? "" : String.valueOf(trace.turns().get(0).modelCompletion());
        return text.isEmpty() ? 0 : text.chars().filter(Character::isLetter).count() / (double) text.length();
    });

    private final List<ActorSystem<?>> systems = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        systems.forEach(ActorSystem::terminate);
        systems.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
    }

    @SuppressWarnings("unchecked")
    @Test
    void jobsOnTheCoachNodeAreRolledOutByTheAthleteNodeAgainstTheToolNode(@TempDir Path dir) throws Exception {
        ActorSystem<SpawnProtocol.Command> coach = (ActorSystem<SpawnProtocol.Command>) start(NodeProgram.COACH, List.of(), 1);
        String seed = Cluster.get(coach).selfMember().address().toString();
        start(NodeProgram.ATHLETE, List.of(seed), 4);
        start(NodeProgram.TOOL, List.of(seed), 1);

        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        Task task = ArithmeticTask.create(6, 3);
        TrainingConfig config = TrainingConfig.defaults().withGroups(4, 1).withAthletes(4)
                .withSampling(1.0, 12, 1, 4096).withCheckpointEvery(1)
                .withOptimisation(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj")), 1e-2, 0);
        JobNode node = JobNode.attach(coach);

        List<StepReport> first = new CopyOnWriteArrayList<>();
        TrainingRun.Result one = TrainingRun.run(spec(config, model, task, 2, dir, "first"), node, first::add);
        assertEquals(2, one.adapter().version());
        assertEquals(2, first.size());

        List<StepReport> second = new CopyOnWriteArrayList<>();
        TrainingRun.Result two = TrainingRun.run(spec(config, model, task, 4, dir, "second"), node, second::add);
        assertEquals(2, two.resumedFromVersion(), "the second job resumes the first one's checkpoint");
        assertEquals(4, two.adapter().version());
        assertEquals(List.of(3L, 4L), second.stream().map(StepReport::version).toList());
        int newest = second.get(1).outcome().scored().stream().flatMap(g -> g.traces().stream())
                .flatMapToInt(t -> Arrays.stream(t.trace().tokens().policyVersions())).max().orElseThrow();
        assertTrue(newest >= 2, "the athlete node's engine got the resumed job's adapters, saw version " + newest);
    }

    private static TrainingRun.Spec spec(TrainingConfig config, Path model, Task task, int steps, Path dir, String jobId) {
        return new TrainingRun.Spec(config, model, ActionFormat.TOOL_N1, task.toolSuites(), BuiltinSuites.Options.defaults(),
                task.examples(), steps, LETTERS, dir.resolve("checkpoints"), jobId);
    }

    private ActorSystem<?> start(NodeProgram program, List<String> seeds, int athletes) {
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"),
                Optional.of(0), Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(athletes), Optional.of(List.of("arithmetic")));
        Config config = ConfigFactory.parseMap(Map.of("akka.actor.serialize-messages", "on",
                        "akka.coordinated-shutdown.run-by-jvm-shutdown-hook", "off", "akka.loglevel", "WARNING"))
                .withFallback(NodeConfigLoader.load(program, overrides, Map.of()));
        ActorSystem<?> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        systems.add(system);
        return system;
    }
}
