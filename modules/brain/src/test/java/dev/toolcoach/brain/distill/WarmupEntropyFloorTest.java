package dev.toolcoach.brain.distill;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.FullWeights;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.SftScore;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The warm-up must leave GRPO something to explore. Demonstrations here are noisy as real ones are: the answer
 * follows a rule 70 % of the time (the rest is one of the other answers), so the best policy a warm-up can learn is
 * uncertain (entropy of the answers' distribution: 0.94 nats). The floor: on held-out demonstrations, the warmed-up
 * policy's entropy stays at least half its held-out loss. A calibrated policy has the two equal (its expected
 * log-loss is its entropy); one trained until it has memorised its demonstrations is confidently wrong on new
 * queries, with an entropy far below its loss, and sampling it at temperature 1 repeats its mistakes: GRPO's groups
 * then all score alike and carry no signal. Early stopping on the held-out loss keeps the policy above the floor;
 * the same warm-up run to the end of its passes falls below it, which is what the floor is there to catch.
 */
class WarmupEntropyFloorTest {
    private static final int PROMPT_TOKENS = 8;
    private static final int ANSWERS = 4;
    private static final double FLOOR = 0.5;

    @Test
    void earlyStoppingKeepsTheWarmedUpPolicysEntropyAboveTheFloorAndTrainingToTheEndDoesNot() {
        List<ScoredTrace> demonstrations = demonstrations(new Random(7), 96);
        SftScore stopped = warmUp(demonstrations, new LearnerSft.Validation(32, 3));
        SftScore toTheEnd = warmUp(demonstrations, new LearnerSft.Validation(32, 0));
        assertTrue(stopped.entropy() >= FLOOR * stopped.loss(),
                "early-stopped warm-up: held-out entropy " + stopped.entropy() + " below half its loss " + stopped.loss());
        assertTrue(toTheEnd.entropy() < FLOOR * toTheEnd.loss(),
                "the warm-up run to its end should have collapsed: entropy " + toTheEnd.entropy() + ", loss " + toTheEnd.loss());
        assertTrue(stopped.loss() < toTheEnd.loss(), "early stopping keeps the lower held-out loss");
    }

    /** Warms a fresh tiny model up for at most 40 passes; the held-out demonstrations scored with the weights it ends with. */
    private static SftScore warmUp(List<ScoredTrace> demonstrations, LearnerSft.Validation validation) {
        ModelConfig config = ModelConfig.llama(32, 64, 1, 2, 1, PROMPT_TOKENS + ANSWERS, 16);
        try (NDManager manager = NDManager.newBaseManager()) {
            Transformer model = Transformer.create(config, ModelWeights.randomHf(config, 5L), manager);
            try (LearnerCore learner = new LearnerCore(model, new FullWeights(model), LearnerConfig.defaults(3e-2))) {
                LearnerSft sft = new LearnerSft(learner, 40, 0.9, 64, 3L, Progress.NONE, validation);
                OpThreads.with(1, () -> sft.train(demonstrations)); // two threads spin against each other on a busy machine
                int held = validation.heldOut();
                return learner.scoreSft(demonstrations.subList(demonstrations.size() - held, demonstrations.size()), 0.9);
            }
        }
    }

    /** Three prompt tokens, then the answer: {@code a mod 4} seven times in ten, else one of the other three. */
    private static List<ScoredTrace> demonstrations(Random random, int count) {
        List<ScoredTrace> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int a = random.nextInt(PROMPT_TOKENS);
            int b = random.nextInt(PROMPT_TOKENS);
            int c = random.nextInt(PROMPT_TOKENS);
            int answer = a % ANSWERS;
            if (random.nextDouble() >= 0.7) answer = (answer + 1 + random.nextInt(ANSWERS - 1)) % ANSWERS;
            int[] ids = {a, b, c, PROMPT_TOKENS + answer};
            TokenRecord tokens = new TokenRecord(3, ids, new int[] {0, 0, 0, 1}, new float[4], new int[] {-1, -1, -1, 0});
            out.add(new ScoredTrace(new Trace("d" + i, "d" + i, "d" + i, null, null, tokens, null, Termination.ANSWER, null, 0, 0,
                    null), 1.0));
        }
        return out;
    }
}
