package dev.toolcoach.bench.learn;

import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Groups of rollouts made up for learner benchmarks, where only their shapes matter. */
public final class SyntheticGroups {

    private SyntheticGroups() {
    }

    /**
     * One group of {@code rows} rollouts of {@code tokens} tokens: a 64-token prompt, then generated tokens with uniform
     * behaviour log-probs; rewards alternate 0, 1.
     */
    public static ScoredGroup of(int rows, int tokens, int vocab) {
        SeededRandom random = new SeededRandom(3);
        List<ScoredTrace> traces = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            int[] ids = new int[tokens];
            int[] mask = new int[tokens];
            float[] logprobs = new float[tokens];
            int[] versions = new int[tokens];
            Arrays.fill(versions, -1);
            for (int t = 0; t < tokens; t++) {
                ids[t] = random.nextInt(vocab);
                if (t >= 64) {
                    mask[t] = 1;
                    logprobs[t] = (float) -Math.log(vocab);
                    versions[t] = 0;
                }
            }
            Trace trace = new Trace("r" + r, "g", "q", null, null, new TokenRecord(64, ids, mask, logprobs, versions),
                    null, Termination.ANSWER, null, 0, 0, null);
            traces.add(new ScoredTrace(trace, r % 2));
        }
        return new ScoredGroup("g", traces);
    }
}
