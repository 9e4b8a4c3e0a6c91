package dev.toolcoach.brain.distill;

import dev.toolcoach.learn.batch.ScoredTrace;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a distillation run did.
 *
 * @param collected     teacher traces in hand (from the teacher or the cache)
 * @param fromCache     true when they came from the cache (no teacher call was made)
 * @param cacheFile     where the traces are cached, or null when they were not cached (a run with teacher errors)
 * @param kept          the demonstrations kept with their rewards, in dataset order
 * @param skipped       traces not kept, by reason (every reason present)
 * @param trainedTokens tokens the SFT step trained on; 0 when no SFT step was given
 * @param passes        the SFT passes run, with their held-out scores (empty when the step reports none)
 * @param keptPass      the pass whose weights the student ended with (0 when no pass ran)
 */
public record DistillReport(int collected, boolean fromCache, Path cacheFile, List<ScoredTrace> kept,
                            Map<SkipReason, Integer> skipped, long trainedTokens, List<LearnerSft.Pass> passes, int keptPass) {
    public DistillReport {
        kept = List.copyOf(kept);
        passes = List.copyOf(passes);
        EnumMap<SkipReason, Integer> all = new EnumMap<>(SkipReason.class);
        for (SkipReason r : SkipReason.values()) all.put(r, skipped.getOrDefault(r, 0));
        skipped = Collections.unmodifiableMap(all);
    }

    public DistillReport(int collected, boolean fromCache, Path cacheFile, List<ScoredTrace> kept,
                         Map<SkipReason, Integer> skipped, long trainedTokens) {
        this(collected, fromCache, cacheFile, kept, skipped, trainedTokens, List.of(), 0);
    }

    /** With what the SFT step reports of its passes. */
    public DistillReport withPasses(List<LearnerSft.Pass> runs, int kept) {
        return new DistillReport(collected, fromCache, cacheFile, this.kept, skipped, trainedTokens, runs, kept);
    }

    public int keptCount() {
        return kept.size();
    }

    public int skipped(SkipReason reason) {
        return skipped.get(reason);
    }
}
