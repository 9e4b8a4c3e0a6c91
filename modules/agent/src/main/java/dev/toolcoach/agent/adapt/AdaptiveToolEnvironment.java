package dev.toolcoach.agent.adapt;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.apache.commons.math3.random.Well19937c;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * TILE's ADAPT step at the tool layer, in one of two ways. Routing (the default): offers one tool per group of
 * equivalent tools and serves a call to a group by the member Thompson sampling picks from the context's preferences;
 * the result names the tool that served the call, so the trace and its tool-use records say which one ran. Hinting
 * ({@link #hinting}): offers every tool, runs each call as the model wrote it, and ends each rollout's system prompt
 * with a preference hint: per group, the member Thompson sampling picks for that rollout (seeded by the rollout, so
 * the same seed, rollout and counts give the same hint) with its competence, over the others the rollout is offered.
 *
 * <p>Either way every outcome updates Beta(α, β) of (context, tool): success raises α, any failure raises β, except
 * UNKNOWN_TOOL (no tool ran). When a trajectory is released, its episode counts for the retirement flag.
 */
public final class AdaptiveToolEnvironment implements ToolEnvironment {
    /** What a hint line starts with. */
    public static final String HINT_PREFIX = "Tool preference from experience: ";

    private final ToolEnvironment tools;
    private final ToolPreferences preferences;
    private final EquivalentTools equivalent;
    private final Function<String, String> contextOf;
    /** The hint's seed in hinting mode; empty: routing. */
    private final OptionalLong hintSeed;
    private final List<ToolSpec> offered;
    private final Map<String, Set<String>> used = new ConcurrentHashMap<>();

    /**
     * Routing, every call judged in one context.
     *
     * @param context the context key every call of this environment is judged in (e.g. {@code task:finance})
     */
    public AdaptiveToolEnvironment(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent, String context) {
        this(tools, preferences, equivalent, constant(context), OptionalLong.empty());
    }

    /**
     * Routing.
     *
     * @param contextOf the context key of a trajectory's calls, by trajectory id (e.g. the hash of its query)
     */
    public AdaptiveToolEnvironment(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent,
                                   Function<String, String> contextOf) {
        this(tools, preferences, equivalent, contextOf, OptionalLong.empty());
    }

    private AdaptiveToolEnvironment(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent,
                                    Function<String, String> contextOf, OptionalLong hintSeed) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.preferences = Objects.requireNonNull(preferences, "preferences");
        this.equivalent = Objects.requireNonNull(equivalent, "equivalent");
        this.contextOf = Objects.requireNonNull(contextOf, "contextOf");
        this.hintSeed = hintSeed;
        equivalent.checkKnown(tools.specs().stream().map(ToolSpec::name).toList());
        this.offered = hintSeed.isPresent() ? tools.specs()
                : tools.specs().stream().filter(s -> equivalent.offered(s.name())).toList();
    }

    /**
     * Hinting: every tool offered, calls run as written, the system prompt ends with the preference hint.
     *
     * @param seed with the rollout id, seeds each rollout's hint
     */
    public static AdaptiveToolEnvironment hinting(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent,
                                                  Function<String, String> contextOf, long seed) {
        return new AdaptiveToolEnvironment(tools, preferences, equivalent, contextOf, OptionalLong.of(seed));
    }

    /** Hinting, every call judged in one context. */
    public static AdaptiveToolEnvironment hinting(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent,
                                                  String context, long seed) {
        return hinting(tools, preferences, equivalent, constant(context), seed);
    }

    private static Function<String, String> constant(String context) {
        Objects.requireNonNull(context, "context");
        return trajectory -> context;
    }

    /** Routing or hinting, as {@code settings} ask ({@link AdaptSettings#hint}). */
    public static AdaptiveToolEnvironment of(ToolEnvironment tools, ToolPreferences preferences, AdaptSettings settings,
                                             String context, long seed) {
        return settings.hint() ? hinting(tools, preferences, settings.equivalent(), context, seed)
                : new AdaptiveToolEnvironment(tools, preferences, settings.equivalent(), context);
    }

    @Override
    public List<ToolSpec> specs() {
        return offered;
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        String context = contextOf.apply(trajectoryId);
        List<ToolCall> routed = hintSeed.isPresent() ? calls : calls.stream().map(c -> equivalent.groupOf(c.name())
                .map(group -> new ToolCall(preferences.sample(context, group), c.arguments())).orElse(c)).toList();
        Set<String> usedHere = used.computeIfAbsent(trajectoryId, t -> ConcurrentHashMap.newKeySet());
        return tools.execute(trajectoryId, routed).stream().map(stage -> stage.thenApply(result -> {
            if (result.status() != ToolResult.Status.UNKNOWN_TOOL) {
                preferences.observe(context, result.call().name(), result.ok());
                usedHere.add(result.call().name());
            }
            return result;
        })).toList();
    }

    /**
     * In hinting mode, one line per group with at least two members among {@code offered}: the member Thompson sampling
     * picks for this rollout, with its competence C, then the group's other offered members with theirs, e.g.
     * {@code Tool preference from experience: npv_v2 (C 0.93) rather than npv (C 0.41).} Empty in routing mode or when no
     * group has a choice among the offered tools.
     */
    @Override
    public Optional<String> promptHint(String trajectoryId, List<ToolSpec> offered) {
        if (hintSeed.isEmpty()) return Optional.empty();
        Set<String> names = offered.stream().map(ToolSpec::name).collect(Collectors.toSet());
        String context = contextOf.apply(trajectoryId);
        Well19937c draws = new Well19937c(hintSeed.getAsLong() * 31 + trajectoryId.hashCode());
        List<String> lines = new ArrayList<>();
        for (List<String> group : equivalent.groups()) {
            List<String> candidates = group.stream().filter(names::contains).toList();
            if (candidates.size() < 2) continue;
            String preferred = preferences.sample(context, candidates, draws);
            String others = candidates.stream().filter(t -> !t.equals(preferred)).map(t -> withCompetence(context, t))
                    .collect(Collectors.joining(", "));
            lines.add(HINT_PREFIX + withCompetence(context, preferred) + " rather than " + others + ".");
        }
        return lines.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", lines));
    }

    private String withCompetence(String context, String tool) {
        return String.format(Locale.ROOT, "%s (C %.2f)", tool, preferences.competence(context, tool));
    }

    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        Set<String> usedHere = used.remove(trajectoryId);
        preferences.episode(contextOf.apply(trajectoryId), usedHere == null ? Set.of() : usedHere);
        return tools.release(trajectoryId);
    }
}
