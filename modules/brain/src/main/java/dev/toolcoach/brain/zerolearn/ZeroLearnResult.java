package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.tasks.TaskExample;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a Zero-Learn run produced.
 *
 * @param examples          the kept queries as training examples, best first when ranked
 * @param rejected          generations not kept, by reason (every reason present, zero when none)
 * @param generationReplies replies asked for while generating
 * @param ranked            true when a usable self-ranking ordered the examples
 * @param unusableRankings  ranking replies that were not a full ranking (retried, then the unranked order kept)
 */
public record ZeroLearnResult(List<TaskExample> examples, Map<Rejection, Integer> rejected, int generationReplies,
                              boolean ranked, int unusableRankings) {
    public ZeroLearnResult {
        examples = List.copyOf(examples);
        EnumMap<Rejection, Integer> all = new EnumMap<>(Rejection.class);
        for (Rejection r : Rejection.values()) all.put(r, rejected.getOrDefault(r, 0));
        rejected = Collections.unmodifiableMap(all);
    }

    public int rejected(Rejection reason) {
        return rejected.get(reason);
    }

    /** True when fewer queries than asked for survived the filters within the allowed replies. */
    public boolean shortOf(int asked) {
        return examples.size() < asked;
    }
}
