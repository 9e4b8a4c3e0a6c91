package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.CodeActCodec;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main job end to end on a deliberately tiny recipe (the learning itself is measured by the recipe's
 * benchmark, not here): a task-sized model is built, evaluated, warmed up from the oracle, trained through the
 * embedded cluster and evaluated; the run folder holds every output; running it again resumes.
 */
class TaskTrainingJobTest {

    @Test
    void aRunFolderGetsEveryOutputAndASecondRunResumesIt(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("finance-tiny");
        TrainingJobSpec options = tinyFinance(run).build();
        List<String> phases = new ArrayList<>();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        TerminalListener shown = new TerminalListener("finance", new PrintStream(console, true, StandardCharsets.UTF_8), false);
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.empty(), new JobListener() {
            @Override
            public void phase(String phase) {
                phases.add(phase);
                shown.phase(phase);
            }

            @Override
            public Progress progress() {
                return shown.progress();
            }
        });

        assertEquals(List.of("model", "evaluate", "warm-up", "evaluate", "train", "save", "evaluate"), phases);
        // every long piece of work ends with its bar as one line (elapsed, rate, ETA), off a terminal; the tiny recipe
        // keeps no oracle trace, so its warm-up trains no SFT batch (LearnerSftTest hears those)
        List<String> finished = console.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(" 100% ")).toList();
        assertEquals(List.of("[finance] model: oracle texts", "[finance] model: vocabulary and weights", "[finance] evaluate",
                "[finance] teacher traces", "[finance] evaluate", "[finance] evaluate"),
                finished.stream().map(l -> l.substring(0, l.indexOf(" 100% "))).toList(), console.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), List.copyOf(summary.evaluations().keySet()));
        for (String file : List.of("config.json", "metrics.jsonl", "traces.jsonl", "eval.json", "reward_curve.png",
                "adapter/adapter_config.json", "adapter/adapter_model.safetensors", "init/tokenizer.json", "distilled/config.json")) {
            assertTrue(Files.isRegularFile(run.resolve(file)), "the run folder has " + file);
        }
        assertTrue(Files.list(run.resolve("checkpoints")).findAny().isPresent(), "checkpoints were written");
        List<StepLine> lines = RunRecorder.read(run);
        assertEquals(List.of(1L, 2L), lines.stream().map(StepLine::step).toList());
        assertEquals(2 * 2 * 4, TraceJson.read(run.resolve("traces.jsonl")).items().size(), "every scored rollout, once");
        assertEquals(summary.training().adapter().version(), PeftAdapterIo.load(run.resolve("adapter")).version());
        Map<?, ?> evals = new ObjectMapper().readValue(run.resolve("eval.json").toFile(), Map.class);
        assertEquals(summary.evaluations().keySet(), evals.keySet());
        // config.json as eval, runs compare and earlier run folders have it: the algorithm and the mode in lower case
        Map<?, ?> config = new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class);
        assertEquals(List.of("grpo", "async", "grpo"), List.of(config.get("algorithm"), config.get("mode"),
                ((Map<?, ?>) config.get("training")).get("algorithm")));

        // the same run folder with more steps: the model and evaluations stay, training goes on from its checkpoint
        phases.clear();
        TaskTrainingJob.Summary resumed = TaskTrainingJob.run(options.toBuilder().recipe(TinyRecipe.get().withGrpoSteps(3)).build(),
                Optional.empty(), recording(phases));
        assertEquals(List.of("train", "save", "evaluate"), phases);
        assertEquals(List.of(1L, 2L, 3L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        assertTrue(resumed.training().resumedFromVersion() >= 0, "the second run resumed a checkpoint");
    }

    /**
     * The user's-model path: a warm-up alone ({@code steps 0}) leaves its model in {@code distilled/}, and that folder,
     * given as a user's checkpoint, is trained as it is: no model is built, no warm-up runs, the folder is evaluated
     * before and after a LoRA adapter is trained over it, and config.json names it.
     */
    @Test
    void aWarmupAloneLeavesAModelThatTrainsAsAUsersCheckpoint(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("base");
        List<String> phases = new ArrayList<>();
        TaskTrainingJob.Summary warmup = TaskTrainingJob.run(tinyFinance(base).recipe(TinyRecipe.get().withGrpoSteps(0)).build(),
                Optional.empty(), recording(phases));
        assertEquals(List.of("model", "evaluate", "warm-up", "evaluate"), phases);
        assertNull(warmup.training(), "no training step was asked");
        assertEquals(List.of("before_training", "after_warmup"), List.copyOf(warmup.evaluations().keySet()));
        assertTrue(Files.isRegularFile(base.resolve("distilled/config.json")));
        assertTrue(Files.notExists(base.resolve("adapter")), "nothing trained, nothing saved");

        Path user = dir.resolve("user");
        phases.clear();
        TrainingJobSpec options = TrainingJobSpec.builder().task("finance").recipe(TinyRecipe.get()).steps(2).seed(5L)
                .checkpointEvery(1).runDir(user).model(base.resolve("distilled")).athletes(8).build();
        TaskTrainingJob.Summary trained = TaskTrainingJob.run(options, Optional.empty(), recording(phases));

        assertEquals(List.of("evaluate", "train", "save", "evaluate"), phases, "no model built, no warm-up");
        assertEquals(List.of("before_training", "after_grpo"), List.copyOf(trained.evaluations().keySet()));
        assertEquals(warmup.evaluations().get("after_warmup").correct(), trained.evaluations().get("before_training").correct(),
                "the folder as given scores as it did at the end of its warm-up");
        assertTrue(Files.notExists(user.resolve("init")) && Files.notExists(user.resolve("distilled")));
        assertEquals(List.of(1L, 2L), RunRecorder.read(user).stream().map(StepLine::step).toList());
        assertEquals(trained.training().adapter().version(), PeftAdapterIo.load(user.resolve("adapter")).version());
        Map<?, ?> config = new ObjectMapper().readValue(user.resolve("config.json").toFile(), Map.class);
        assertEquals(base.resolve("distilled").toAbsolutePath().normalize().toString(), config.get("model"));
        assertEquals("tool-n1-compact", config.get("action_format"), "a folder without a chat template acts in the recipe's format");
    }

    @Test
    void aModelFolderThatCannotBeLoadedIsRefusedInOneLineBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        Path noWeights = Files.createDirectories(dir.resolve("no-weights"));
        Files.writeString(noWeights.resolve("config.json"), "{\"model_type\": \"qwen2\", \"hidden_size\": 32, \"intermediate_size\": 48, "
                + "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"vocab_size\": 300}");
        Path gpt2 = Files.createDirectories(dir.resolve("gpt2"));
        Files.writeString(gpt2.resolve("config.json"), "{\"model_type\": \"gpt2\"}");
        for (Path model : List.of(noWeights, gpt2, dir.resolve("absent"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TaskTrainingJob.validate(tinyFinance(dir.resolve("run")).model(model).build()));
            assertTrue(e.getMessage().startsWith("model: ") && !e.getMessage().contains("\n"), e.getMessage());
        }
        assertTrue(Files.notExists(dir.resolve("run")), "nothing was written");
    }

    /**
     * The main job acting in code, on the email task over a few mailboxes (11 questions, so the oracle's programs are
     * few): the model's vocabulary is learned from the oracle's code actions, the warm-up's teacher traces are programs
     * run in the sandbox calling the email tools, and the GRPO rollouts are offered the tools as Python functions.
     */
    @SuppressWarnings("unchecked")
    @Test
    void aCodeActingJobLearnsItsVocabularyFromProgramsAndTrainsOnSandboxRuns(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path maildir = Files.createDirectories(data.resolve("enron/maildir"));
        try (var users = Files.list(SharedData.require("enron/maildir"))) {
            for (Path user : users.sorted().limit(12).toList()) copyTree(user, maildir.resolve(user.getFileName().toString()));
        }
        Files.writeString(data.resolve("enron/emails_sample.csv"), "file,message\n");
        Path run = dir.resolve("email-code");
        ScratchRecipe tiny = TinyRecipe.get();
        // 256 merges rather than 64, so the vocabulary reaches past the mail's own most frequent pairs to the actions'
        ScratchRecipe recipe = new ScratchRecipe(tiny.shape(), new ScratchRecipe.Vocabulary(256, 8, 0), tiny.warmup(), tiny.grpo(),
                tiny.rollouts(), tiny.evaluation()).withActionFormat(ActionFormat.CODE_ACT).withGrpoSteps(1);
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(tinyFinance(run).task("email").dataDir(data).mode(TrainingMode.SYNC)
                .recipe(recipe).build(), Optional.empty(), recording(new ArrayList<>()));

        Map<?, ?> config = new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class);
        assertEquals("code-act", ((Map<?, ?>) config.get("recipe")).get("actionFormat"));
        Set<String> tokens = ((Map<String, Object>) ((Map<?, ?>) new ObjectMapper().readValue(run.resolve("init/tokenizer.json").toFile(),
                Map.class).get("model")).get("vocab")).keySet();
        assertTrue(tokens.stream().anyMatch(t -> t.contains("code>")), "the vocabulary was learned from code actions: " + tokens);
        assertTrue(tokens.stream().noneMatch(t -> t.contains("tool_call")), "and not from Tool-N1's calls: " + tokens);

        List<Trace> oracle = new ArrayList<>();
        try (var files = Files.list(run.resolve("teacher-cache"))) {
            for (Path f : files.toList()) oracle.addAll(TraceJson.read(f).items());
        }
        assertEquals(recipe.warmup().traces(), oracle.size(), "the warm-up's teacher traces");
        // the tiny recipe's 96-token replies cut the longer search programs short; the read programs run
        List<ToolResult> programs = oracle.stream().flatMap(t -> t.turns().stream()).flatMap(t -> t.actionOutput().stream()).toList();
        assertTrue(programs.stream().allMatch(r -> r.call().name().equals(CodeActCodec.PYTHON_TOOL) && r.ok()),
                "code actions only, each run in the sandbox: " + programs);
        List<Object> called = programs.stream().flatMap(r -> ((List<Map<String, Object>>) ((Map<String, Object>) r.structured())
                .get("tool_calls")).stream()).map(c -> c.get("name")).toList();
        assertTrue(called.contains("read_email") && Set.of("search_emails", "read_email").containsAll(called),
                "the programs called the email tools through the sandbox: " + called);

        assertEquals(List.of(1L), RunRecorder.read(run).stream().map(StepLine::step).toList(), "one GRPO step");
        List<Trace> trained = TraceJson.read(run.resolve("traces.jsonl")).items();
        assertEquals(2 * 4, trained.size());
        assertTrue(trained.stream().allMatch(t -> t.turns().get(0).promptForModel().contains("def read_email(")),
                "the rollouts were offered the tools as Python functions");
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), List.copyOf(summary.evaluations().keySet()));
    }

    @Test
    void aShortHpoJobTunesRealBoostedTreesOnOneDataset(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("hpo-wine");
        ScratchRecipe tiny = TinyRecipe.get();
        // 4 turns, as the default recipe's (up to 3 calls and the answer), and 256 merges, so that the teacher's calls
        // (a configuration each) fit 128 new tokens
        ScratchRecipe recipe = new ScratchRecipe(tiny.shape(), new ScratchRecipe.Vocabulary(256, 8, 0), tiny.warmup(), tiny.grpo(),
                new ScratchRecipe.Rollouts(4, 768, 128, 8), tiny.evaluation());
        List<String> phases = new ArrayList<>();
        TaskTrainingJob.Summary summary = TaskTrainingJob.run(tinyFinance(run).task("hpo-wine").recipe(recipe)
                .dataDir(SharedData.require(".")).mode(TrainingMode.SYNC).build(), Optional.empty(), recording(phases));

        assertEquals(List.of("model", "evaluate", "warm-up", "evaluate", "train", "save", "evaluate"), phases);
        assertEquals("hpo-wine", new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class).get("task"));
        List<Trace> oracle = new ArrayList<>();
        try (var files = Files.list(run.resolve("teacher-cache"))) {
            for (Path f : files.toList()) oracle.addAll(TraceJson.read(f).items());
        }
        assertEquals(TinyRecipe.get().warmup().traces(), oracle.size(), "the warm-up's teacher traces");
        List<ToolResult> calls = oracle.stream().flatMap(t -> t.turns().stream()).flatMap(t -> t.actionOutput().stream()).toList();
        assertFalse(calls.isEmpty());
        for (ToolResult r : calls) { // each a real cross-validation of XGBoost on wine's training part
            assertTrue(r.ok() && r.call().name().equals("cross_validate"), r.toString());
            Map<?, ?> result = (Map<?, ?>) r.structured();
            assertEquals("logloss", result.get("metric"), "wine's test part is too small for accuracy: " + r);
            double score = ((Number) result.get("score")).doubleValue();
            assertTrue(score > 0 && score < 1.1, "a multi-class log loss of a fitted model: " + r); // chance is ln 3 = 1.10
        }
        assertEquals(List.of(1L, 2L), RunRecorder.read(run).stream().map(StepLine::step).toList());
        List<Trace> trained = TraceJson.read(run.resolve("traces.jsonl")).items();
        assertEquals(2 * 2 * 4, trained.size());
        assertTrue(trained.stream().allMatch(t -> t.reward().isPresent() && t.reward().getAsDouble() >= 0 && t.reward().getAsDouble() <= 1),
                "every rollout rewarded, in [0, 1]");
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), List.copyOf(summary.evaluations().keySet()));
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target);
            }
        }
    }

    /** ARCHITECTURE.md says why: seeded model and optimisers, one intra-op thread, rollouts seeded by id, lag 0, dispatch order. */
    @Test
    void theSynchronousModeRepeatsARunExactlyWithTheSameSeedHeldOutEvaluationsIncluded(@TempDir Path dir) throws Exception {
        ScratchRecipe tiny = TinyRecipe.get();
        // a held-out evaluation after every step, on the whole (20-question) test split
        ScratchRecipe recipe = new ScratchRecipe(tiny.shape(), tiny.vocabulary(), tiny.warmup(), tiny.grpo(), tiny.rollouts(),
                new ScratchRecipe.Evaluation(20, 4, 1, 64));
        List<TaskTrainingJob.Summary> runs = new ArrayList<>();
        List<HeldOutLine> heard = new ArrayList<>();
        for (String name : List.of("first", "second")) {
            runs.add(TaskTrainingJob.run(tinyFinance(dir.resolve(name)).recipe(recipe).mode(TrainingMode.SYNC).build(), Optional.empty(),
                    new JobListener() {
                        @Override
                        public void phase(String phase) {
                        }

                        @Override
                        public void heldOut(HeldOutLine line) {
                            heard.add(line);
                        }
                    }));
        }
        assertEquals(withoutSpeed(runs.get(0).evaluations()), withoutSpeed(runs.get(1).evaluations()),
                "the same accuracies, intervals and pass@k");
        assertEquals(RunRecorder.read(dir.resolve("first")).stream().map(StepLine::meanReward).toList(),
                RunRecorder.read(dir.resolve("second")).stream().map(StepLine::meanReward).toList(), "the same rewards per step");
        Map<String, HostTensor> first = runs.get(0).training().adapter().tensors();
        Map<String, HostTensor> second = runs.get(1).training().adapter().tensors();
        assertEquals(first.keySet(), second.keySet());
        for (String name : first.keySet()) {
            assertArrayEquals(first.get(name).data(), second.get(name).data(), "the same adapter, bit for bit: " + name);
        }

        List<HeldOutLine> heldOut = RunRecorder.readHeldOut(dir.resolve("first"));
        assertEquals(List.of(1L, 2L), heldOut.stream().map(HeldOutLine::step).toList(), "one after each step");
        assertEquals(List.of(20, 20), heldOut.stream().map(HeldOutLine::examples).toList());
        assertEquals(heldOut, RunRecorder.readHeldOut(dir.resolve("second")), "greedy on the same adapters: the same figures");
        assertEquals(heard, List.of(heldOut.get(0), heldOut.get(1), heldOut.get(0), heldOut.get(1)), "the listener heard each");
        // the one after the last step evaluated the trained adapter on the same questions as the final evaluation
        EvalRecord trained = runs.get(0).evaluations().get("after_grpo");
        assertEquals(List.of(trained.correct(), runs.get(0).training().adapter().version()),
                List.of(heldOut.get(1).correct(), heldOut.get(1).version()));
    }

    /** The evaluations without their rollouts per second: wall-clock speed is the one figure a rerun need not repeat. */
    private static Map<String, EvalRecord> withoutSpeed(Map<String, EvalRecord> evaluations) {
        Map<String, EvalRecord> out = new java.util.TreeMap<>();
        evaluations.forEach((phase, e) -> out.put(phase, new EvalRecord(e.examples(), e.correct(), e.accuracy(), e.accuracyCi95(),
                e.meanReward(), e.terminations(), e.training(), e.promptTokens(), e.promptTokensPerTurn(),
                e.offeredToolsPerQuery(), e.oracleToolsOffered(), null, e.byOracleRoute())));
        return out;
    }

    @Test
    void aDatasetReplacesTheTrainingQueriesAndItsBadLinesAreCountedSkips(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>();
        for (TaskExample e : TaskRegistry.standard(Path.of("../shared/data"), 1).get("finance").examples().subList(0, 3)) {
            lines.add(ExampleJsonl.toJson(new TaskExample("ds-" + e.id(), e.messages(), e.tools(), e.goldAnswer(), e.solution(), e.gold())));
        }
        lines.add(1, "{\"id\": \"no-messages\"}");
        lines.add(3, "{not json");
        Path data = Files.write(dir.resolve("finance-own.jsonl"), lines);
        Path run = dir.resolve("own");

        TaskTrainingJob.run(tinyFinance(run).recipe(TinyRecipe.get().withWarmupTraces(0).withGrpoSteps(1)).dataset(data).build(),
                Optional.empty(), recording(new ArrayList<>()));

        Map<?, ?> dataset = (Map<?, ?>) new ObjectMapper().readValue(run.resolve("config.json").toFile(), Map.class).get("dataset");
        assertEquals(3, dataset.get("examples"));
        assertEquals(List.of("line 2", "line 4"), ((List<?>) dataset.get("skipped")).stream().map(l -> ((Map<?, ?>) l).get("where")).toList());
        List<String> queries = TraceJson.read(run.resolve("traces.jsonl")).items().stream().map(t -> t.queryId()).distinct().toList();
        assertTrue(!queries.isEmpty() && queries.stream().allMatch(q -> q.startsWith("ds-")), "trained on the dataset only: " + queries);
        assertEquals(List.of(1L), RunRecorder.read(run).stream().map(StepLine::step).toList());
    }

    @Test
    void anUnknownTaskOrAlgorithmIsRefusedBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        IllegalArgumentException task = assertThrows(IllegalArgumentException.class,
                () -> TaskTrainingJob.validate(tinyFinance(dir).task("stocks").build()));
        assertTrue(task.getMessage().startsWith("no task named 'stocks'; known tasks: [arithmetic, finance, email"), task.getMessage());
        // the algorithm becomes its enum where a request enters, naming the valid ones when it is none of them
        IllegalArgumentException algorithm = assertThrows(IllegalArgumentException.class,
                () -> TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"algorithm\": \"ppo\"}", dir, dir, dir));
        assertEquals("unknown algorithm 'ppo'; valid: grpo, dpo, sft", algorithm.getMessage());
        IllegalArgumentException mode = assertThrows(IllegalArgumentException.class,
                () -> TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"mode\": \"fast\"}", dir, dir, dir));
        assertEquals("unknown mode 'fast'; valid: async, sync, turn-barrier", mode.getMessage());
        assertEquals(Algorithm.DPO, TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"algorithm\": \" DPO \"}", dir, dir, dir).algorithm());
        assertEquals(TrainingMode.SYNC, TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"mode\": \"Sync\"}", dir, dir, dir).mode());
        assertTrue(Files.notExists(dir.resolve("config.json")), "nothing was written");
    }

    @Test
    void theRecipeBecomesTheTrainingSettingsInOnePlace(@TempDir Path dir) throws Exception {
        ScratchRecipe recipe = ScratchRecipe.overDefaults(new ObjectMapper().readTree("{\"entropyBonus\": 0.01}"));
        ScratchRecipe.Rollouts r = recipe.rollouts();
        ScratchRecipe.Grpo g = recipe.grpo();
        // the recipe's numbers, the mode's lag, the options' counts; the rest at TrainingConfig's defaults
        TrainingConfig expected = TrainingConfig.builder().algorithm(Algorithm.DPO).groupSize(g.groupSize()).groupsPerStep(g.groupsPerStep())
                .maxPolicyLag(0).oversampling(g.oversampling()).athletes(3)
                .rollouts(new RolloutSettings(g.temperature(), r.maxNewTokens(), r.maxTurns(), r.maxTotalTokens()))
                .lora(g.lora()).learningRate(g.lr()).entropyBonus(0.01).checkpointEvery(5).seed(7).build();
        assertEquals(expected, TrainingJobSpec.builder().task("arithmetic").dataDir(dir).runDir(dir).algorithm(Algorithm.DPO)
                .mode(TrainingMode.SYNC).recipe(recipe).athletes(3).seed(7).checkpointEvery(5).build().trainingConfig());
    }

    @Test
    void theTrainingSettingsAreWrittenFlatAsTheyAlwaysWere(@TempDir Path dir) throws Exception {
        TrainingConfig config = TrainingConfig.builder().groupSize(8).groupsPerStep(8).athletes(64)
                .rollouts(new RolloutSettings(1.0, 64, 4, 512)).checkpointEvery(5)
                .lora(new LoraConfig(16, 32f, 0f, Set.of("q_proj"))).learningRate(1e-3).build();
        TaskTrainingJob.writeJson(dir.resolve("config.json"), Map.of("training", config));
        assertEquals("""
                {
                  "training" : {
                    "algorithm" : "grpo",
                    "groupSize" : 8,
                    "groupsPerStep" : 8,
                    "maxPolicyLag" : 1,
                    "oversampling" : 1,
                    "athletes" : 64,
                    "temperature" : 1.0,
                    "maxNewTokens" : 64,
                    "maxTurns" : 4,
                    "maxTotalTokens" : 512,
                    "lora" : {
                      "r" : 16,
                      "alpha" : 32.0,
                      "dropout" : 0.0,
                      "targets" : [ "q_proj" ]
                    },
                    "learningRate" : 0.001,
                    "klBeta" : 0.0,
                    "entropyBonus" : 0.0,
                    "sftRewardThreshold" : 0.9,
                    "checkpointEvery" : 5,
                    "rolloutTimeout" : "PT2M",
                    "seed" : 1
                  }
                }""", Files.readString(dir.resolve("config.json")));
    }

    @Test
    void trainingQueriesAreNeitherTheWarmupsNorTheTestsAndTheTestSplitIsCapped() {
        Task finance = TaskRegistry.standard(Path.of("../shared/data"), 3).get("finance");
        Split split = TaskTrainingJob.split(finance, 3, 300);
        assertEquals(300, split.test().size(), "20% of 2,500 capped at 300");
        assertEquals(split, TaskTrainingJob.split(finance, 3, 300), "fixed by the seed");
        ScratchRecipe recipe = ScratchRecipe.defaults();
        List<TaskExample> warmup = TaskTrainingJob.warmupQueries(split, recipe);
        List<TaskExample> training = TaskTrainingJob.trainingQueries(split, recipe);
        assertEquals(recipe.warmup().traces() + recipe.warmup().heldOut(), warmup.size(), "trained on, then held out");
        assertEquals(split.train().size() - warmup.size(), training.size());
        Set<String> seen = new HashSet<>();
        for (List<TaskExample> part : List.of(split.test(), warmup, training)) {
            part.forEach(e -> assertTrue(seen.add(e.id()), e.id() + " is in one part only"));
        }
        assertEquals(split.train(), TaskTrainingJob.trainingQueries(split, recipe.withWarmupTraces(0)), "without a warm-up, all of it");
        Split small = Split.of(ArithmeticTask.create(50, 1).examples(), 0.2, 1);
        assertEquals(small.train(), TaskTrainingJob.trainingQueries(small, recipe), "a warm-up that saw everything leaves everything");
    }

    /** The tiny finance job these tests run, asynchronous unless a test says otherwise. */
    private static TrainingJobSpec.Builder tinyFinance(Path run) {
        return TrainingJobSpec.builder().task("finance").runDir(run).recipe(TinyRecipe.get()).athletes(8).seed(5).checkpointEvery(1);
    }

    private static JobListener recording(List<String> phases) {
        return phases::add;
    }
}
