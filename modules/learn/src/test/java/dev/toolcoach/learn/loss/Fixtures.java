package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Small hand-made traces: a one-token prompt followed by {@code generated} tokens. */
final class Fixtures {
    private Fixtures() {
    }

    static Trace trace(String id, int generated, float behaviourLogprob) {
        int n = 1 + generated;
        int[] ids = new int[n];
        int[] mask = new int[n];
        float[] logprobs = new float[n];
        int[] versions = new int[n];
        Arrays.fill(versions, -1);
        for (int i = 1; i < n; i++) {
            ids[i] = i % 3;
            mask[i] = 1;
            logprobs[i] = behaviourLogprob;
            versions[i] = 0;
        }
        return new Trace(id, "g", "q", null, null, new TokenRecord(1, ids, mask, logprobs, versions), null,
                Termination.ANSWER, null, 0, 0, null);
    }

    /** A group whose i-th trace has {@code lengths[i]} generated tokens and reward {@code rewards[i]}. */
    static ScoredGroup group(String id, int[] lengths, double... rewards) {
        List<ScoredTrace> traces = new ArrayList<>();
        for (int i = 0; i < rewards.length; i++) {
            traces.add(new ScoredTrace(trace(id + "-" + i, lengths[i], -1f), rewards[i]));
        }
        return new ScoredGroup(id, traces);
    }
}
