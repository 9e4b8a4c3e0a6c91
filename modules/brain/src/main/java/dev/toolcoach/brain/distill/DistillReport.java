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
 */
public record DistillReport(int collected, boolean fromCache, Path cacheFile, List<ScoredTrace> kept,
                            Map<SkipReason, Integer> skipped, long trainedTokens) {
    public DistillReport {
        kept = List.copyOf(kept);
        EnumMap<SkipReason, Integer> all = new EnumMap<>(SkipReason.class);
        for (SkipReason r : SkipReason.values()) all.put(r, skipped.getOrDefault(r, 0));
        skipped = Collections.unmodifiableMap(all);
    }

    public int keptCount() {
        return kept.size();
    }

    public int skipped(SkipReason reason) {
        return skipped.get(reason);
    }
}
