package dev.toolcoach.brain.distill;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.FullWeights;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.core.SftMetrics;
import dev.toolcoach.learn.core.SftScore;
import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Distillation ending in real SFT: a tiny random Llama over the byte vocabulary learns from the oracle's traces. */
class LearnerSftTest {
    private static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    private static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMl.IM_END));
    private static final ModelConfig CONFIG = ModelConfig.llama(32, 64, 1, 2, 1, TOKENIZER.vocabularySize(), 4096);

    @Test
    void keptDemonstrationsTrainTheStudentThroughTheLearner(@TempDir Path cache) {
        Task finance = FinanceTask.create(2, 11L);
        try (NDManager manager = NDManager.newBaseManager();
             ToolExecutor tools = FinanceTools.executor()) {
            Transformer model = Transformer.create(CONFIG, ModelWeights.randomHf(CONFIG, 5L), manager);
            LoraAdapter adapter = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj")), CONFIG, manager, 6L);
            try (LearnerCore learner = new LearnerCore(model, new LoraWeights(adapter),
                    LearnerConfig.defaults(1e-2).withMicroBatchRows(2))) {
                LearnerSft sft = new LearnerSft(learner, 3, 0.9);
                Distiller distiller = new Distiller(STUDENT, tools, new DistillSettings(1, 0.9, AgentConfig.defaults()),
                        new TraceCache(cache), sft);

                DistillReport report = distiller.distill(DistillDataset.of(finance, finance.examples()),
                        new OracleTeacher(finance.name(), STUDENT));

                long generated = report.kept().stream().map(ScoredTrace::trace)
                        .mapToLong(t -> Arrays.stream(t.tokens().lossMask()).filter(m -> m == 1).count()).sum();
                assertEquals(2, report.keptCount());
                assertEquals(3 * generated, report.trainedTokens());
                List<SftMetrics> epochs = sft.history();
                assertEquals(3, learner.version());
                assertTrue(epochs.get(2).loss() < epochs.get(0).loss(), "loss did not fall: " + epochs);
            }
        }
    }

    @Test
    void smallBatchesTakeOneStepPerBatchOverEveryDemonstrationEachEpoch(@TempDir Path cache) {
        Task finance = FinanceTask.create(3, 11L);
        try (NDManager manager = NDManager.newBaseManager();
             ToolExecutor tools = FinanceTools.executor()) {
            Transformer model = Transformer.create(CONFIG, ModelWeights.randomHf(CONFIG, 5L), manager);
            try (LearnerCore learner = new LearnerCore(model, new FullWeights(model), LearnerConfig.defaults(1e-3))) {
                List<String> heard = new ArrayList<>();
                Progress progress = (what, total, unit) -> {
                    heard.add(what + " " + total + " " + unit);
                    return new Progress.Meter() {
                        @Override
                        public void step() {
                            heard.add("step");
                        }

                        @Override
                        public void close() {
                            heard.add("end");
                        }
                    };
                };
                LearnerSft sft = new LearnerSft(learner, 2, 0.9, 2, 8L, progress, LearnerSft.Validation.NONE);
                DistillReport report = new Distiller(STUDENT, tools, new DistillSettings(1, 0.9, AgentConfig.defaults()),
                        new TraceCache(cache), sft, progress).distill(DistillDataset.of(finance, finance.examples()),
                        new OracleTeacher(finance.name(), STUDENT));
                assertEquals(List.of("teacher traces 3 traces", "step", "step", "step", "end",
                        "warm-up SFT 4 batches", "step", "step", "step", "step", "end"), heard);

                long generated = report.kept().stream().map(ScoredTrace::trace)
                        .mapToLong(t -> Arrays.stream(t.tokens().lossMask()).filter(m -> m == 1).count()).sum();
                assertEquals(3, report.keptCount());
                assertEquals(4, sft.history().size(), "batches of 2 and 1, twice");
                assertEquals(4, learner.version());
                assertEquals(2 * generated, report.trainedTokens());
            }
        }
    }

    @Test
    void heldOutDemonstrationsAreScoredEveryPassAndEarlyStoppingKeepsTheBestPass(@TempDir Path cache) {
        // a rate far too high: the held-out loss jumps after a pass, and a patience of one pass stops there
        warmUp(FinanceTask.create(6, 11L), cache, 3e-2, 30, new LearnerSft.Validation(2, 1), (learner, sft, report) -> {
            List<LearnerSft.Pass> passes = sft.passes();
            assertEquals(6, report.keptCount());
            assertTrue(passes.stream().allMatch(p -> p.heldOut() != null && p.heldOut().tokens() > 0), passes.toString());
            LearnerSft.Pass best = passes.stream().min(java.util.Comparator.comparingDouble(p -> p.heldOut().loss())).orElseThrow();
            assertEquals(best.pass(), sft.keptPass());
            assertTrue(passes.size() < 30, "never stopped: " + passes);
            assertTrue(sft.keptPass() < passes.size(), "the last pass is not the best here: " + passes);
            assertEquals(sft.keptPass() + 1, passes.size(), "stops at the first pass without a better held-out loss");
            List<ScoredTrace> heldOut = report.kept().subList(4, 6);
            assertEquals(best.heldOut().loss(), learner.scoreSft(heldOut, 0.9).loss(), 1e-4, "the weights are back at the best pass");
        });
    }

    @Test
    void aSmallTaskHoldsOutAtMostHalfItsDemonstrations(@TempDir Path cache) {
        // a recipe's hold-out made for hundreds of demonstrations, on six
        warmUp(FinanceTask.create(6, 11L), cache, 3e-3, 1, new LearnerSft.Validation(20, 0), (learner, sft, report) -> {
            assertEquals(6, report.keptCount());
            SftScore heldOut = sft.passes().get(0).heldOut();
            assertEquals(learner.scoreSft(report.kept().subList(3, 6), 0.9).loss(), heldOut.loss(), 1e-4, "the last three held out");
            assertTrue(sft.history().get(0).tokensTrained() > 0, "the first three trained");
        });
    }

    @Test
    void aTargetLossEndsTheWarmUpAtTheFirstPassThatReachesIt(@TempDir Path cache) {
        Task finance = FinanceTask.create(6, 11L);
        List<LearnerSft.Pass> free = passesTo(finance, cache.resolve("free"), 0);
        double target = free.get(2).heldOut().loss(); // a loss the third pass reaches
        int first = free.stream().filter(p -> p.heldOut().loss() <= target).findFirst().orElseThrow().pass();

        List<LearnerSft.Pass> stopped = passesTo(finance, cache.resolve("stopped"), target);
        assertEquals(first, stopped.size(), "stops after the first pass at or below the target: " + free);
        assertEquals(free.subList(0, first), stopped, "the same passes up to there");
        assertTrue(first < free.size(), "the cap (8 passes) was not what ended it");
    }

    /** Eight passes at most over four demonstrations, two held out, stopping at {@code targetLoss} (0: never). */
    private static List<LearnerSft.Pass> passesTo(Task finance, Path cache, double targetLoss) {
        List<LearnerSft.Pass> passes = new java.util.ArrayList<>();
        warmUp(finance, cache, 3e-3, 8, new LearnerSft.Validation(2, 0, targetLoss), (learner, sft, report) -> {
            assertEquals(sft.passes().size(), sft.keptPass(), "the last pass run is the one kept");
            passes.addAll(sft.passes());
        });
        return passes;
    }

    /** What a test checks once the warm-up has run, with its learner still open. */
    private interface WarmedUp {
        void check(LearnerCore learner, LearnerSft sft, DistillReport report);
    }

    /** The oracle's traces of the task distilled into a fresh tiny model at {@code rate}, then {@code check}ed. */
    private static void warmUp(Task finance, Path cache, double rate, int epochs, LearnerSft.Validation validation, WarmedUp check) {
        try (NDManager manager = NDManager.newBaseManager();
             ToolExecutor tools = FinanceTools.executor()) {
            Transformer model = Transformer.create(CONFIG, ModelWeights.randomHf(CONFIG, 5L), manager);
            try (LearnerCore learner = new LearnerCore(model, new FullWeights(model), LearnerConfig.defaults(rate))) {
                LearnerSft sft = new LearnerSft(learner, epochs, 0.9, 4, 8L, Progress.NONE, validation);
                Distiller distiller = new Distiller(STUDENT, tools, new DistillSettings(1, 0.9, AgentConfig.defaults()),
                        new TraceCache(cache), sft);
                DistillReport report = OpThreads.with(1, () -> distiller.distill(DistillDataset.of(finance, finance.examples()),
                        new OracleTeacher(finance.name(), STUDENT))); // two threads spin against each other on a busy machine
                check.check(learner, sft, report);
            }
        }
    }
}
