package dev.toolcoach.brain.run;

import akka.actor.Address;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.receptionist.Receptionist;
import akka.cluster.typed.Cluster;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.StyleTemplates;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.testkit.ToolCallingModel;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceWarnings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs on a cluster of three nodes (three actor systems on loopback): the job runs on the coach node,
 * the athlete node finds it through its announcer and rolls out against the tool node's servers. Two
 * jobs one after the other on the same long-lived nodes: the athletes release the first and join the second;
 * and a job whose tool node goes away and is replaced while it runs.
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
        TrainingConfig config = TrainingConfig.builder().groupSize(4).groupsPerStep(1).athletes(4)
                .rollouts(new RolloutSettings(1.0, 12, 1, 4096)).checkpointEvery(1)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        JobNode node = JobNode.attach(coach);

        List<StepReport> first = new CopyOnWriteArrayList<>();
        TrainingRun.Result one = TrainingRun.run(spec(config, model, task, 2, dir, "first"), node, first::add);
        assertEquals(2, one.adapter().version());
        assertEquals(2, first.size());

        List<StepReport> second = new CopyOnWriteArrayList<>();
        TrainingRun.Result two = TrainingRun.run(spec(config, model, task, 4, dir, "second"), node, second::add);
        assertEquals(2, two.resumedFromVersion(), "the second job resumes the first one's checkpoint");
        assertEquals(4, two.adapter().version());
        assertEquals(List.of(3, 4), second.stream().map(StepReport::version).toList());
        int newest = second.get(1).scored().stream().flatMap(g -> g.traces().stream())
                .flatMapToInt(t -> Arrays.stream(t.trace().tokens().policyVersions())).max().orElseThrow();
        assertTrue(newest >= 2, "the athlete node's engine got the resumed job's adapters, saw version " + newest);
    }

    /**
     * A Qwen-style folder acting in its native Hermes format on the cluster, whose template drops a reply's thinking
     * once results follow it: the athletes render through the folder's own template (it offers the tools, results go
     * back as tool messages naming their tool), so every turn after the first starts a new context; the traces reach
     * the learner with their contexts and it trains a GRPO step on them.
     */
    @SuppressWarnings("unchecked")
    @Test
    void nativeToolCallsThroughTheFoldersTemplateTrainAGrpoStepOnTracesOfSeveralContexts(@TempDir Path dir) throws Exception {
        ActorSystem<SpawnProtocol.Command> coach = (ActorSystem<SpawnProtocol.Command>) start(NodeProgram.COACH, List.of(), 1);
        String seed = Cluster.get(coach).selfMember().address().toString();
        start(NodeProgram.ATHLETE, List.of(seed), 2);
        start(NodeProgram.TOOL, List.of(seed), 1);

        Path model = ToolCallingModel.write(dir.resolve("model"),
                "<think>Add them.</think>\n<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}\n</tool_call>");
        Files.writeString(model.resolve("chat_template.jinja"), StyleTemplates.QWEN_DROPPING_EARLIER_THINKING);
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(1).athletes(2)
                .rollouts(new RolloutSettings(1.0, 8, 2, 4096)).checkpointEvery(100)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        Reward firstOfGroup = Reward.perTrace("first-of-group", (trace, example) -> trace.rolloutId().endsWith("/0") ? 1 : 0);
        List<StepReport> reports = new CopyOnWriteArrayList<>();
        TrainingRun.Result result = TrainingRun.run(TrainingRun.Spec.builder().config(config).modelDir(model)
                .actionFormat(ActionFormat.HERMES).suites(List.of("arithmetic")).dataset(ArithmeticTask.create(6, 3).examples()).steps(1)
                .reward(firstOfGroup).checkpointDir(dir.resolve("checkpoints")).jobId("native").build(), JobNode.attach(coach), reports::add);

        assertEquals(1, result.adapter().version(), "one GRPO step");
        assertEquals(1, result.accounts().trained(), result.accounts().toString());
        List<Trace> traces = reports.get(0).scored().stream().flatMap(g -> g.traces().stream()).map(t -> t.trace()).toList();
        assertEquals(2, traces.size());
        for (Trace trace : traces) {
            assertEquals(2, trace.turns().size(), "the model calls add every turn");
            assertEquals(List.of(ToolResult.Status.OK, ToolResult.Status.OK), statuses(trace));
            assertEquals(2, trace.tokens().contextCount(), "the second turn was generated in a new context");
            assertTrue(trace.turns().get(0).promptForModel().contains("# Tools\n<tools>\n{\"type\": \"function\""),
                    "the template offers the tools: " + trace.turns().get(0).promptForModel());
            String second = trace.turns().get(1).promptForModel();
            assertFalse(second.contains("Add them."), "the template dropped the earlier thinking: " + second);
            assertTrue(second.contains("<tool_response>\n5\n</tool_response>"), second);
            assertEquals("add", trace.turns().get(1).formattedConversation().get(3).name(), "results are tool messages naming their tool");
            assertTrue(TraceWarnings.of(trace).stream().noneMatch(w -> w.contains("token")), TraceWarnings.of(trace).toString());
        }
    }

    /**
     * A code-acting model on the cluster path: each reply is a Python program, which the athlete runs in its sandbox;
     * the program's function calls reach the arithmetic suite on the tool node, and what it printed comes back as
     * the observation, the whole run (code, output, calls) kept in the trace.
     */
    @SuppressWarnings("unchecked")
    @Test
    void aCodeActingModelsProgramsRunInTheSandboxAndCallTheToolNode(@TempDir Path dir) throws Exception {
        ActorSystem<SpawnProtocol.Command> coach = (ActorSystem<SpawnProtocol.Command>) start(NodeProgram.COACH, List.of(), 1);
        String seed = Cluster.get(coach).selfMember().address().toString();
        start(NodeProgram.ATHLETE, List.of(seed), 2);
        start(NodeProgram.TOOL, List.of(seed), 1);
        String program = "<code>\nprint(multiply(add(2, 3), 4))\n</code>";
        Path model = ToolCallingModel.write(dir.resolve("model"), program);
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(1).athletes(2)
                .rollouts(new RolloutSettings(1.0, 8, 2, 4096)).checkpointEvery(100)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        Reward firstOfGroup = Reward.perTrace("first-of-group", (trace, example) -> trace.rolloutId().endsWith("/0") ? 1 : 0);
        List<StepReport> reports = new CopyOnWriteArrayList<>();
        TrainingRun.Result result = TrainingRun.run(TrainingRun.Spec.builder().config(config).modelDir(model)
                .actionFormat(ActionFormat.CODE_ACT).suites(List.of("arithmetic")).dataset(ArithmeticTask.create(6, 3).examples()).steps(1)
                .reward(firstOfGroup).checkpointDir(dir.resolve("checkpoints")).jobId("code-act").build(), JobNode.attach(coach), reports::add);

        assertEquals(1, result.adapter().version(), "one GRPO step");
        List<Trace> traces = reports.get(0).scored().stream().flatMap(g -> g.traces().stream()).map(t -> t.trace()).toList();
        assertEquals(2, traces.size());
        for (Trace trace : traces) {
            assertEquals(List.of(ToolResult.Status.OK, ToolResult.Status.OK), statuses(trace), "a program every turn");
            ToolResult run = trace.turns().get(0).actionOutput().get(0);
            assertTrue(run.text().matches("20(\\.0)?"), run.text());
            Map<String, Object> log = (Map<String, Object>) run.structured();
            assertEquals("print(multiply(add(2, 3), 4))", log.get("code"));
            List<Map<String, Object>> calls = (List<Map<String, Object>>) log.get("tool_calls");
            assertEquals(List.of("add", "multiply"), calls.stream().map(c -> c.get("name")).toList(), "both calls reached the tool node");
            assertTrue(trace.turns().get(0).promptForModel().contains("def add("), "the tools are offered as Python functions");
        }
    }

    /** One family's folder acting in its native format on the cluster, and how its template shows a tool result. */
    private record NativeFamily(ModelFamily family, List<String> specials, String endOfTurn, String template,
                                ActionFormat format, String reply, String resultAsShown) {
    }

    /**
     * Llama 3 (JSON calls, results under ipython), Qwen3 and Phi-4-mini (their real templates from the shared data)
     * folders on the cluster path: the athletes render through each folder's own template, the model's native calls
     * reach the tool node, the results come back in the template's tool role, and the learner trains a GRPO step.
     */
    @SuppressWarnings("unchecked")
    @Test
    void everyFamilyActsInItsNativeFormatOnTheClusterAndTrainsAStep(@TempDir Path dir) throws Exception {
        List<NativeFamily> families = List.of(
                new NativeFamily(ModelFamily.LLAMA,
                        List.of("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"), "<|eot_id|>",
                        StyleTemplates.LLAMA3, ActionFormat.LLAMA3_JSON, "{\"name\": \"add\", \"parameters\": {\"a\": 2, \"b\": 3}}",
                        "<|start_header_id|>ipython<|end_header_id|>\n\n5<|eot_id|>"),
                new NativeFamily(ModelFamily.QWEN3, TinyChatModel.SPECIALS, "<|im_end|>",
                        Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja")), ActionFormat.HERMES,
                        "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}\n</tool_call>",
                        "<tool_response>\n5\n</tool_response>"),
                new NativeFamily(ModelFamily.PHI3,
                        List.of("<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|/tool|>", "<|end|>", "<|endoftext|>"),
                        "<|end|>", Files.readString(SharedData.require("chat_templates/templates/phi-4-mini-instruct.jinja")),
                        ActionFormat.PHI, "functools[{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}]",
                        "<|tool|>5<|end|>"));
        ActorSystem<SpawnProtocol.Command> coach = (ActorSystem<SpawnProtocol.Command>) start(NodeProgram.COACH, List.of(), 1);
        String seed = Cluster.get(coach).selfMember().address().toString();
        start(NodeProgram.ATHLETE, List.of(seed), 2);
        start(NodeProgram.TOOL, List.of(seed), 1);
        JobNode node = JobNode.attach(coach);
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(1).athletes(2)
                .rollouts(new RolloutSettings(1.0, 8, 2, 4096)).checkpointEvery(100)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        Reward firstOfGroup = Reward.perTrace("first-of-group", (trace, example) -> trace.rolloutId().endsWith("/0") ? 1 : 0);

        for (NativeFamily f : families) {
            String name = f.family().modelType();
            Path model = ToolCallingModel.write(dir.resolve(name), f.family(), f.specials(), f.endOfTurn(), f.reply());
            Files.writeString(model.resolve("chat_template.jinja"), f.template());
            List<StepReport> reports = new CopyOnWriteArrayList<>();
            TrainingRun.Result result = TrainingRun.run(TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(f.format())
                    .suites(List.of("arithmetic")).dataset(ArithmeticTask.create(6, 3).examples()).steps(1).reward(firstOfGroup)
                    .checkpointDir(dir.resolve(name + "-checkpoints")).jobId("native-" + name).build(), node, reports::add);

            assertEquals(1, result.adapter().version(), name + ": one GRPO step");
            List<Trace> traces = reports.get(0).scored().stream().flatMap(g -> g.traces().stream()).map(t -> t.trace()).toList();
            assertEquals(2, traces.size(), name);
            for (Trace trace : traces) {
                assertEquals(List.of(ToolResult.Status.OK, ToolResult.Status.OK), statuses(trace), name + ": the model calls add every turn");
                assertEquals(f.reply(), trace.turns().get(0).modelCompletion(), name);
                String second = trace.turns().get(1).promptForModel();
                assertTrue(second.contains(f.resultAsShown()), name + ": the result in the template's tool role: " + second);
                assertTrue(TraceWarnings.of(trace).stream().noneMatch(w -> w.contains("token")), TraceWarnings.of(trace).toString());
            }
        }
    }

    /**
     * The tool node stops in the middle of a job: the athletes' calls come back as error observations, the job goes
     * on, and once a new tool node joins the calls succeed again. The model answers every turn with the same call;
     * the reward holds the learner at the first successful group until the tool node is gone, and at the first failed
     * group until the new one is listed, so the job is still running at each change of the cluster.
     */
    @SuppressWarnings("unchecked")
    @Test
    void aJobRidesOutAToolNodeOutageAndItsCallsSucceedAgainWhenANewToolNodeJoins(@TempDir Path dir) throws Exception {
        ActorSystem<SpawnProtocol.Command> coach = (ActorSystem<SpawnProtocol.Command>) start(NodeProgram.COACH, List.of(), 1);
        String seed = Cluster.get(coach).selfMember().address().toString();
        ActorSystem<?> athlete = start(NodeProgram.ATHLETE, List.of(seed), 4);
        ActorSystem<?> tool = start(NodeProgram.TOOL, List.of(seed), 1);
        // the first calls must find the tool server: on a loaded machine its listing can reach the athlete late
        awaitToolServerOn(athlete, Cluster.get(tool).selfMember().address());

        Path model = ToolCallingModel.write(dir.resolve("model"),
                "<tool_call>[{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}]</tool_call>");
        OutageGate gate = new OutageGate();
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(2).athletes(4).maxPolicyLag(1)
                .rollouts(new RolloutSettings(1.0, 8, 2, 4096)).checkpointEvery(100)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        List<StepReport> reports = new CopyOnWriteArrayList<>();
        CompletableFuture<TrainingRun.Result> job = CompletableFuture.supplyAsync(() -> TrainingRun.run(
                TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                        .suites(List.of("arithmetic")).dataset(ArithmeticTask.create(6, 3).examples())
                        .steps(5).reward(Reward.perTrace("calls-ok", gate))
                        .checkpointDir(dir.resolve("checkpoints")).jobId("outage").build(), JobNode.attach(coach), reports::add));

        gate.await(gate.succeeded, "a group whose calls succeeded");
        tool.terminate();
        tool.getWhenTerminated().toCompletableFuture().join();
        gate.toolDown.countDown();
        gate.await(gate.failed, "a group whose calls failed");
        ActorSystem<?> replacement = start(NodeProgram.TOOL, List.of(seed), 1);
        awaitToolServerOn(athlete, Cluster.get(replacement).selfMember().address());
        gate.toolBack.countDown();

        TrainingRun.Result result = job.get(2, TimeUnit.MINUTES);
        assertEquals(5, reports.size(), "every step ran");
        List<List<ToolResult.Status>> observations = reports.stream().flatMap(r -> r.scored().stream())
                .flatMap(g -> g.traces().stream()).map(t -> statuses(t.trace())).toList();
        int firstFailure = indexOf(observations, s -> s.stream().anyMatch(st -> st != ToolResult.Status.OK));
        assertTrue(firstFailure > 0, "calls failed while the tool node was away: " + observations);
        assertTrue(observations.stream().flatMap(List::stream).allMatch(st -> st == ToolResult.Status.OK
                || st == ToolResult.Status.UNAVAILABLE || st == ToolResult.Status.TIMEOUT), "failures are UNAVAILABLE or TIMEOUT: " + observations);
        assertTrue(observations.subList(firstFailure, observations.size()).stream()
                        .anyMatch(s -> !s.isEmpty() && s.stream().allMatch(ToolResult.Status.OK::equals)),
                "calls succeeded again after the new tool node joined: " + observations);
        List<String> rollouts = reports.stream().flatMap(r -> r.scored().stream()).flatMap(g -> g.traces().stream())
                .map(t -> t.trace().rolloutId()).toList();
        assertEquals(rollouts.size(), rollouts.stream().distinct().count(), "no rollout was scored twice");

        LearnerAccounts accounts = result.accounts();
        assertEquals(0, accounts.dropped().get(GroupDropped.Reason.REWARD_FAILED), "the gate never gave up: " + accounts);
        assertEquals(0, accounts.pending(), "no group left waiting: " + accounts);
        assertEquals(accounts.groupsComplete(), accounts.trained() + accounts.skipped() + accounts.dropped().total(), accounts.toString());
        assertEquals(accounts.trained() + accounts.skipped(), observations.size() / 2, "every scored group trained once");
    }

    /**
     * Rewards a rollout 1 when all its calls succeeded, else 0; holds the learner (on its training thread, where
     * rewards run) at the first successful rollout until the tool node is down, and at the first failed one until
     * the new tool node is listed. A hold gives up after a minute, which fails the group and so the test.
     */
    private static final class OutageGate implements TraceReward {
        final CountDownLatch succeeded = new CountDownLatch(1);
        final CountDownLatch failed = new CountDownLatch(1);
        final CountDownLatch toolDown = new CountDownLatch(1);
        final CountDownLatch toolBack = new CountDownLatch(1);

        @Override
        public double score(Trace trace, RewardContext example) {
            List<ToolResult.Status> statuses = statuses(trace);
            boolean ok = !statuses.isEmpty() && statuses.stream().allMatch(ToolResult.Status.OK::equals);
            if (ok && succeeded.getCount() > 0) {
                succeeded.countDown();
                hold(toolDown, "the tool node to stop");
            } else if (!ok && toolDown.getCount() == 0 && failed.getCount() > 0) {
                failed.countDown();
                hold(toolBack, "the new tool node");
            }
            return ok ? 1 : 0;
        }

        private static void hold(CountDownLatch latch, String what) {
            try {
                if (!latch.await(1, TimeUnit.MINUTES)) throw new IllegalStateException("gave up waiting for " + what);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        void await(CountDownLatch latch, String what) throws InterruptedException {
            assertTrue(latch.await(2, TimeUnit.MINUTES), "no " + what + " within 2 minutes");
        }
    }

    private static List<ToolResult.Status> statuses(Trace trace) {
        return trace.turns().stream().flatMap(turn -> turn.actionOutput().stream()).map(ToolResult::status).toList();
    }

    private static <T> int indexOf(List<T> items, Predicate<T> condition) {
        for (int i = 0; i < items.size(); i++) if (condition.test(items.get(i))) return i;
        return -1;
    }

    /** Polls (with a deadline) until the node's Receptionist lists an arithmetic tool server on {@code node}. */
    private static void awaitToolServerOn(ActorSystem<?> system, Address node) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            Receptionist.Listing listing = AskPattern.<Receptionist.Command, Receptionist.Listing>ask(system.receptionist(),
                    replyTo -> Receptionist.find(ServiceKeys.toolSuite("arithmetic"), replyTo), Duration.ofSeconds(3),
                    system.scheduler()).toCompletableFuture().get();
            if (listing.getServiceInstances(ServiceKeys.toolSuite("arithmetic")).stream()
                    .anyMatch(ref -> node.equals(ref.path().address()))) return;
            Thread.sleep(100); // polling the Receptionist with a deadline: the listing has no "changed" event for a one-off ask
        }
        throw new AssertionError("no arithmetic tool server of " + node + " listed within a minute");
    }

    private static TrainingRun.Spec spec(TrainingConfig config, Path model, Task task, int steps, Path dir, String jobId) {
        return TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                .suites(task.toolSuites()).dataset(task.examples()).steps(steps).reward(LETTERS)
                .checkpointDir(dir.resolve("checkpoints")).jobId(jobId).build();
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
