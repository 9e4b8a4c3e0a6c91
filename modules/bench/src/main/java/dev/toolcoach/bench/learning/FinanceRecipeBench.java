package dev.toolcoach.bench.learning;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.DistillSettings;
import dev.toolcoach.brain.distill.Distiller;
import dev.toolcoach.brain.distill.LearnerSft;
import dev.toolcoach.brain.distill.OracleTeacher;
import dev.toolcoach.brain.distill.Student;
import dev.toolcoach.brain.distill.TraceCache;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.eval.TaskEvaluation;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.run.SyncGrpo;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TrainingMode;
import dev.toolcoach.brain.taskjob.CallShapedReward;
import dev.toolcoach.brain.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.scratch.TaskTexts;
import dev.toolcoach.brain.scratch.TaskVocabulary;
import dev.toolcoach.learn.core.FullWeights;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The from-scratch recipe on the finance task, in one JVM and without actors: build a task-sized model
 * from the training split's texts, evaluate it, warm it up by SFT on oracle traces, evaluate, run GRPO
 * with a LoRA adapter on the frozen warmed-up base (rollouts on the inference engine through the agent
 * loop and the in-process finance tools, rewards from the task's own reward plus partial credit for the
 * oracle's call arguments, {@link CallShapedReward}), evaluate again. With
 * {@code scratch} the warm-up is skipped and GRPO starts from the random model with the same budget.
 * Test accuracy is greedy, on the task's test split; the split, the warm-up's queries and GRPO's (those the
 * warm-up did not see) are the main job's ({@link TaskTrainingJob}).
 *
 * <p>Run (from the repository root; the first line writes the bench's classpath):
 * <pre>
 * export DJL_OFFLINE=true OPT_OUT_TRACKING=true
 * mvn -B -q -pl modules/bench -am test-compile exec:exec -Dexec.executable=echo -Dexec.args=%classpath \
 *     | grep '^/.*bench/target/classes' > /tmp/bench-cp.txt
 * java -cp "$(cat /tmp/bench-cp.txt)" dev.toolcoach.bench.learning.FinanceRecipeBench [seed] [warmup|scratch] [workDir]
 * </pre>
 * Recipe values can be overridden with {@code -Drecipe.<component>=value} (see {@link RecipeOverrides}).
 */
public final class FinanceRecipeBench {

    private FinanceRecipeBench() {
    }

    public static void main(String[] args) throws IOException {
        // one intra-op thread for the learner on this thread: measured here, a training step with PyTorch's
        // default two threads took 5.9 s instead of 0.33 s once other processes competed for the two cores
        OpThreads.setIntraOp(1);
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1L;
        boolean warmup = args.length < 2 || args[1].equals("warmup");
        Path work = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("finance-recipe");
        ScratchRecipe recipe = RecipeOverrides.apply(ScratchRecipe.defaults());
        System.out.println("recipe " + recipe);
        System.out.printf("seed %d, GRPO from %s, work dir %s, load %s%n", seed, warmup ? "the warm-up" : "scratch", work, Load.now());

        Task task = FinanceTask.create(TaskRegistry.GENERATED_QUESTIONS, seed);
        Split split = TaskTrainingJob.split(task, seed, recipe.evaluation().testExamples());
        long totalStart = System.nanoTime();
        try (ToolExecutor tools = new ToolExecutor(FinanceTools.suite(), ExecutorSettings.defaults())) {
            Phase build = Phase.start("build");
            List<String> texts = TaskTexts.of(recipe.vocabulary().from(split.train()), tools, recipe.greedyAgent());
            TaskVocabulary vocabulary = TaskVocabulary.learn(texts, recipe.vocabulary().maxMerges(), recipe.vocabulary().minMergeCount());
            ScratchModel scratch = ScratchModel.write(work.resolve("scratch"), vocabulary, recipe.shape(), seed);
            System.out.printf("vocabulary %d (%d merges), %s%n", vocabulary.size(), vocabulary.merges().size(), scratch.config());
            build.end();

            ScratchModel base = scratch;
            try (LocalPolicy policy = LocalPolicy.load(scratch.dir(), null, null, recipe.rollouts().engineBatch(), ComputeDevice.cpu())) {
                printTokens(policy, texts);
                evaluate("before training", policy, tools, recipe, task, split.test());
                if (warmup) base = warmUp(recipe, task, split, tools, policy, scratch, work, seed);
            }
            try (LocalPolicy policy = LocalPolicy.load(base.dir(), null, null, recipe.rollouts().engineBatch(), ComputeDevice.cpu())) {
                if (warmup) evaluate("after warm-up", policy, tools, recipe, task, split.test());
                grpo(recipe, task, split, base, policy, work, seed);
                evaluate("after GRPO", policy, tools, recipe, task, split.test());
            }
        }
        System.out.printf("total wall %.1f s, load %s%n", (System.nanoTime() - totalStart) / 1e9, Load.now());
    }

    private static ScratchModel warmUp(ScratchRecipe recipe, Task task, Split split, ToolExecutor tools, LocalPolicy policy,
                                       ScratchModel scratch, Path work, long seed) throws IOException {
        Phase phase = Phase.start("warm-up");
        Transformer model = policy.model().transformer();
        Student student = new Student("scratch-" + seed, policy.tokenizer(), policy.chatFormat(), scratch.vocabulary().imEndId());
        try (LearnerCore learner = new LearnerCore(model, new FullWeights(model), recipe.warmupLearner(seed))) {
            LearnerSft sft = new LearnerSft(learner, recipe.warmup().epochs(), 0.9, recipe.warmup().batch(), seed);
            Distiller distiller = new Distiller(student, tools, new DistillSettings(1, 0.9, recipe.greedyAgent()),
                    new TraceCache(work.resolve("traces")), sft);
            DistillReport report = distiller.distill(DistillDataset.of(task, TaskTrainingJob.warmupQueries(split, recipe)),
                    new OracleTeacher(task.name(), student));
            var history = sft.history();
            System.out.printf("warm-up: %d traces kept of %d, %d steps, %d tokens trained, loss %.3f -> %.3f%n",
                    report.keptCount(), report.collected(), history.size(), report.trainedTokens(),
                    history.get(0).loss(), history.get(history.size() - 1).loss());
        }
        ScratchModel warmed = scratch.saveAs(work.resolve("warmed"), model.weights().toHf(model.config()));
        phase.end();
        return warmed;
    }

    /** GRPO by the synchronous loop, as the main job's sync mode trains, on the training queries in a shuffled order. */
    private static void grpo(ScratchRecipe recipe, Task task, Split split, ScratchModel base, LocalPolicy policy, Path work, long seed) {
        Phase phase = Phase.start("GRPO");
        ScratchRecipe.Rollouts r = recipe.rollouts();
        // the job spec's mapping, in sync mode, without dynamic sampling: each step trains the next queries of the order
        TrainingConfig config = TrainingJobSpec.builder().task(task.name()).runDir(work).recipe(recipe).mode(TrainingMode.SYNC)
                .athletes(r.engineBatch()).seed(seed).build().trainingConfig().toBuilder().oversampling(1).build();
        // the training queries in shuffled epochs, one after another: the order the loop walks them in
        List<TaskExample> pool = new ArrayList<>(TaskTrainingJob.trainingQueries(split, recipe));
        List<TaskExample> order = new ArrayList<>();
        Random shuffle = new Random(seed);
        int perStep = recipe.grpo().groupsPerStep();
        for (int cursor = pool.size(), step = 0; step < recipe.grpo().steps(); step++, cursor += perStep) {
            if (cursor + perStep > pool.size()) {
                Collections.shuffle(pool, shuffle);
                cursor = 0;
            }
            order.addAll(pool.subList(cursor, cursor + perStep));
        }
        TrainingRun.Spec spec = TrainingRun.Spec.builder().config(config).modelDir(base.dir()).actionFormat(r.actionFormat())
                .suites(task.toolSuites()).dataset(order).steps(recipe.grpo().steps())
                .reward(Reward.perTrace(task.name(), new CallShapedReward(task.reward(), recipe.grpo().callWeight())))
                .checkpointDir(work.resolve("checkpoints")).jobId("finance-recipe-bench").build();
        long[] rollouts = {0};
        long[] trainMillis = {0};
        long start = System.nanoTime();
        TrainingRun.Result result = SyncGrpo.run(spec, s -> {
            int stepRollouts = s.sampled().stream().mapToInt(g -> g.traces().size()).sum();
            rollouts[0] += stepRollouts;
            trainMillis[0] += s.elapsed().toMillis();
            GrpoMetrics m = (GrpoMetrics) s.metrics();
            System.out.printf("GRPO step %d: reward %.3f, rollouts %d, train %d ms, loss %.4f, clip %.3f/%.3f, entropy %.3f,"
                            + " grad %.3f, skipped groups %d%n", s.step(), s.meanReward(), stepRollouts, s.elapsed().toMillis(),
                    m.loss(), m.clipFractionLow(), m.clipFractionHigh(), m.entropy(), m.gradNorm(), m.skippedGroups());
        });
        long rolloutMillis = (System.nanoTime() - start) / 1_000_000 - trainMillis[0];
        long rolloutCount = rollouts[0];
        policy.engine().setAdapter(result.adapter()); // the evaluation after GRPO
        policy.engine().whenAdapterAtLeast(result.adapter().version()).join();
        System.out.printf("GRPO rollouts: %d in %.1f s outside training steps = %.2f rollouts/s%n", rolloutCount, rolloutMillis / 1e3,
                rolloutCount * 1e3 / Math.max(1, rolloutMillis));
        phase.end();
    }

    private static void evaluate(String when, LocalPolicy policy, ToolExecutor tools, ScratchRecipe recipe, Task task,
                                 List<TaskExample> test) {
        Phase phase = Phase.start("eval " + when);
        EvaluationReport report = new TaskEvaluation(policy.tokenizer(), policy.chatFormat(), policy.generator(), tools,
                recipe.greedyAgent(), task.reward()).evaluate(test);
        System.out.println("test " + when + ": " + report);
        report.outcomes().stream().filter(o -> !o.correct()).limit(3).forEach(o ->
                System.out.println("  wrong " + o.example().id() + " gold " + o.example().goldAnswer() + ": "
                        + transcript(o.trace())));
        phase.end();
    }

    private static String transcript(Trace trace) {
        StringBuilder out = new StringBuilder();
        trace.turns().forEach(t -> out.append(" | ").append(t.modelCompletion().replace("\n", "\\n"))
                .append(t.toolOutput() == null ? "" : " => " + t.toolOutput().replace("\n", "\\n")));
        return out.toString();
    }

    private static void printTokens(LocalPolicy policy, List<String> texts) {
        int[] lengths = texts.stream().mapToInt(t -> policy.tokenizer().encode(t).length).sorted().toArray();
        System.out.printf("oracle rollout tokens: median %d, max %d (characters: median %d)%n", lengths[lengths.length / 2],
                lengths[lengths.length - 1], texts.stream().mapToInt(String::length).sorted().toArray()[texts.size() / 2]);
    }

    /** Wall time of one phase, printed with the machine load at its end. */
    private record Phase(String name, long start) {
        static Phase start(String name) {
            return new Phase(name, System.nanoTime());
        }

        void end() {
            System.out.printf("phase %s: %.1f s wall, load %s%n", name, (System.nanoTime() - start) / 1e9, Load.now());
        }
    }
}
