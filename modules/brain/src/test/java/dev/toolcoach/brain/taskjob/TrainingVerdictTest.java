package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.eval.PassAtK;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.GrpoMetrics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingVerdictTest {

    private static EvalRecord eval(int correct, PassAtK passAtK) {
        return new EvalRecord(300, correct, correct / 300.0, EvalRecord.wilson(correct, 300), 0, Map.of(), passAtK, null, null,
                null, null, null, null);
    }

    private static StepLine step(long n, double informative, double entropy) {
        return step(n, informative, entropy, 100);
    }

    private static StepLine step(long n, double informative, double entropy, long tokensTrained) {
        GrpoMetrics m = new GrpoMetrics(1, 0, 1, 0, 0, 0, 0, entropy, 0.1, tokensTrained, 0, 0, 1e-3, 0);
        return new StepLine(n, (int) n, 8, 0, 0.5, 0.5, 0.5, 0.5, 1, n, 8, informative, m, 0, 0, Map.of(), 0.1);
    }

    @Test
    void aClearGainIsOneLine() {
        List<String> lines = TrainingVerdict.of(Map.of("after_warmup", eval(180, null), "after_grpo", eval(240, null)), Algorithm.GRPO,
                List.of(step(1, 0.6, 0.3)));
        assertEquals(1, lines.size(), lines.toString());
        // 0.6 -> 0.8 on 300: +20.0, half-width 1.96 * sqrt(0.24/300 + 0.16/300) = 7.16 points
        assertEquals("GRPO raised test accuracy: +20.0 points over the warm-up (95% CI +12.8 to +27.2, 300 test questions)", lines.get(0));
    }

    @Test
    void withoutAWarmupTheGainIsOverTheModelAsGiven() {
        List<String> lines = TrainingVerdict.of(Map.of("before_training", eval(180, null), "after_grpo", eval(240, null)), Algorithm.GRPO,
                List.of(step(1, 0.6, 0.3)));
        assertEquals(List.of("GRPO raised test accuracy: +20.0 points over the model as given (95% CI +12.8 to +27.2, 300 test questions)"),
                lines);
    }

    @Test
    void aChangeInsideTheNoiseSaysWhyFromTheRunsOwnFigures() {
        PassAtK narrow = new PassAtK(64, 8, 8, 1.0, 0.703, 0.68);
        List<String> lines = TrainingVerdict.of(Map.of("after_warmup", eval(198, narrow), "after_grpo", eval(210, narrow)), Algorithm.GRPO,
                List.of(step(1, 0.2, 0.03), step(2, 0.3, 0.05)));
        assertTrue(lines.get(0).startsWith("GRPO changed test accuracy by less than its noise: +4.0 points"), lines.get(0));
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(1).contains("only 25% of the sampled groups differed"), lines.get(1));
        assertTrue(lines.get(2).contains("entropy averaged 0.040 nats"), lines.get(2));
        assertTrue(lines.get(3).contains("pass@8 on the training queries was 70.3% against pass@1 68.0%"), lines.get(3));
    }

    @Test
    void noStepTrainedAndNoEvaluationToCompareAreSaidPlainly() {
        List<String> lines = TrainingVerdict.of(Map.of("after_warmup", eval(198, null), "after_grpo", eval(198, null)), Algorithm.GRPO, List.of());
        assertTrue(lines.get(1).startsWith("why: no learner step was trained"), lines.toString());
        assertEquals(List.of(), TrainingVerdict.of(Map.of("before_training", eval(0, null)), Algorithm.GRPO, List.of()));
        // steps whose groups all scored alike (a model that never answers): skipped, no token trained, no entropy measured
        List<String> allSkipped = TrainingVerdict.of(Map.of("before_training", eval(0, null), "after_grpo", eval(0, null)),
                Algorithm.GRPO, List.of(step(1, 0, 0, 0), step(2, 0, 0, 0)));
        assertEquals(2, allSkipped.size(), allSkipped.toString());
        assertTrue(allSkipped.get(1).startsWith("why: no learner step was trained"), allSkipped.get(1));
        List<String> failedWarmup = TrainingVerdict.of(Map.of("after_warmup", eval(0, new PassAtK(64, 8, 8, 1.0, 0, 0)),
                "after_grpo", eval(1, null)), Algorithm.GRPO, List.of(step(1, 0.9, 0.4)));
        assertEquals(2, failedWarmup.size(), failedWarmup.toString());
        assertTrue(failedWarmup.get(1).startsWith("why: after the warm-up no sample of the training queries was right"), failedWarmup.get(1));
    }
}
