package dev.toolcoach.agent.adapt;

import org.apache.commons.math3.distribution.BetaDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * TILE's tool preferences: Beta(α, β) per (context, tool) with α = α₀ + successes and β = β₀ + failures, and Thompson
 * sampling among candidate tools (draw from each Beta, take the largest).
 *
 * <p>Experience has two parts: the replicated base (every node's experience, set by the replicator when one runs) and
 * this node's outcomes not yet handed to it ({@link #drain}). Counts are their sum, so a node's own outcomes count at
 * once and exactly once. Without a replicator nothing drains and everything stays local. Thread-safe.
 */
public final class ToolPreferences {

    /** The Beta prior every (context, tool) starts from. */
    public record Prior(double alpha, double beta) {
        public static final Prior UNIFORM = new Prior(1, 1);

        public Prior {
            if (!(alpha > 0) || !(beta > 0) || Double.isInfinite(alpha) || Double.isInfinite(beta)) {
                throw new IllegalArgumentException("prior alpha and beta must be finite and > 0, were " + alpha + ", " + beta);
            }
        }
    }

    /** A (context, tool) pair. */
    public record Key(String context, String tool) {
        public Key {
            Objects.requireNonNull(context, "context");
            Objects.requireNonNull(tool, "tool");
        }
    }

    private final Prior prior;
    private final RandomGenerator random;
    private Map<Key, Experience> replicated = Map.of();
    private final Map<Key, Experience> pending = new HashMap<>();
    private final Map<String, Long> episodes = new HashMap<>();
    private final Map<Key, Long> lastUsed = new HashMap<>();

    public ToolPreferences(Prior prior, long seed) {
        this.prior = Objects.requireNonNull(prior, "prior");
        this.random = new Well19937c(seed);
    }

    public Prior prior() {
        return prior;
    }

    /** One call's outcome. */
    public synchronized void observe(String context, String tool, boolean success) {
        pending.merge(new Key(context, tool), success ? new Experience(1, 0) : new Experience(0, 1), Experience::plus);
    }

    /** This node's outcomes since the last drain, handed to the replicator (which then reports them back in the base). */
    public synchronized Map<Key, Experience> drain() {
        Map<Key, Experience> out = Map.copyOf(pending);
        pending.clear();
        return out;
    }

    /** Whether outcomes wait to be handed to the replicator (false: everything counted is in the replicated base). */
    public synchronized boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Experience kept from an earlier session (a {@link PreferenceFile} snapshot), counted as this node's own. */
    public synchronized void restore(Map<Key, Experience> experience) {
        experience.forEach((k, e) -> pending.merge(k, e, Experience::plus));
    }

    /** The replicated experience of every node (replaces the previous base). */
    public synchronized void replicated(Map<Key, Experience> base) {
        replicated = Map.copyOf(base);
    }

    public synchronized Experience experience(String context, String tool) {
        Key key = new Key(context, tool);
        return replicated.getOrDefault(key, Experience.NONE).plus(pending.getOrDefault(key, Experience.NONE));
    }

    /** Every (context, tool) with experience, sorted. */
    public synchronized Map<Key, Experience> all() {
        Map<Key, Experience> out = new TreeMap<>(java.util.Comparator.comparing(Key::context).thenComparing(Key::tool));
        out.putAll(replicated);
        pending.forEach((k, e) -> out.merge(k, e, Experience::plus));
        return out;
    }

    public double alpha(String context, String tool) {
        return prior.alpha() + experience(context, tool).successes();
    }

    public double beta(String context, String tool) {
        return prior.beta() + experience(context, tool).failures();
    }

    /** Competence C = α/(α+β): the posterior mean success rate. */
    public double competence(String context, String tool) {
        double a = alpha(context, tool);
        return a / (a + beta(context, tool));
    }

    /** Thompson sampling: one draw from each candidate's Beta, the candidate with the largest draw (first on ties). */
    public synchronized String sample(String context, List<String> candidates) {
        return sample(context, candidates, random);
    }

    /**
     * Thompson sampling with draws from {@code draws} instead of this object's generator: the same candidates, counts
     * and generator give the same tool whatever other samples were taken meanwhile (a rollout's hint, seeded per rollout).
     */
    public synchronized String sample(String context, List<String> candidates, RandomGenerator draws) {
        if (candidates.isEmpty()) throw new IllegalArgumentException("no candidate tools to choose from");
        String best = null;
        double bestDraw = -1;
        for (String tool : candidates) {
            Experience e = replicated.getOrDefault(new Key(context, tool), Experience.NONE)
                    .plus(pending.getOrDefault(new Key(context, tool), Experience.NONE));
            double draw = new BetaDistribution(draws, prior.alpha() + e.successes(), prior.beta() + e.failures()).sample();
            if (draw > bestDraw) {
                bestDraw = draw;
                best = tool;
            }
        }
        return best;
    }

    /**
     * One episode of {@code context} ended having called {@code used}: the basis of the retirement flag (episodes since a
     * tool's last use). Kept on this node only: "unused" is about what this node's agents do.
     */
    public synchronized void episode(String context, java.util.Collection<String> used) {
        long n = episodes.merge(context, 1L, Long::sum);
        for (String tool : used) lastUsed.put(new Key(context, tool), n);
    }

    /** Episode counts kept from an earlier session: episodes per context, and the episode of each tool's last use. */
    public synchronized void restoreEpisodes(Map<String, Long> episodesByContext, Map<Key, Long> lastUsedEpisode) {
        episodesByContext.forEach((c, n) -> episodes.merge(c, n, Long::sum));
        lastUsed.putAll(lastUsedEpisode);
    }

    /** Episodes of {@code context} ended on this node. */
    public synchronized long episodes(String context) {
        return episodes.getOrDefault(context, 0L);
    }

    /** The episode of {@code context} in which {@code tool} was last used here, 0 if never. */
    public synchronized long lastUsed(String context, String tool) {
        return lastUsed.getOrDefault(new Key(context, tool), 0L);
    }

    /** Episodes of {@code context} since {@code tool} was last used here (all of them when it never was). */
    public synchronized long episodesUnused(String context, String tool) {
        return episodes.getOrDefault(context, 0L) - lastUsed.getOrDefault(new Key(context, tool), 0L);
    }

    /** A copy of the counts by context then tool, as a status or snapshot shows them. */
    public Map<String, Map<String, Experience>> byContext() {
        Map<String, Map<String, Experience>> out = new LinkedHashMap<>();
        all().forEach((k, e) -> out.computeIfAbsent(k.context(), c -> new LinkedHashMap<>()).put(k.tool(), e));
        return out;
    }
}
