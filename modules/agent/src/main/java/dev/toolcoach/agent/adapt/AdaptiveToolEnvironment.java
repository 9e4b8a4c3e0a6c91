package dev.toolcoach.agent.adapt;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * TILE's ADAPT step at the tool layer: offers one tool per group of equivalent tools, serves a call to a group by the
 * member Thompson sampling picks from the context's preferences, and feeds every outcome back into them. The result
 * names the tool that served the call, so the trace and its tool-use records say which one ran.
 *
 * <p>Outcomes update Beta(α, β) of (context, tool): success raises α, any failure raises β, except UNKNOWN_TOOL (no tool
 * ran). When a trajectory is released, its episode counts for the retirement flag.
 */
public final class AdaptiveToolEnvironment implements ToolEnvironment {
    private final ToolEnvironment tools;
    private final ToolPreferences preferences;
    private final EquivalentTools equivalent;
    private final Function<String, String> contextOf;
    private final List<ToolSpec> offered;
    private final Map<String, Set<String>> used = new ConcurrentHashMap<>();

    /**
     * @param context the context key every call of this environment is judged in (e.g. {@code task:finance})
     */
    public AdaptiveToolEnvironment(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent, String context) {
        this(tools, preferences, equivalent, trajectory -> context);
        Objects.requireNonNull(context, "context");
    }

    /**
     * @param contextOf the context key of a trajectory's calls, by trajectory id (e.g. the hash of its query)
     */
    public AdaptiveToolEnvironment(ToolEnvironment tools, ToolPreferences preferences, EquivalentTools equivalent,
                                   Function<String, String> contextOf) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.preferences = Objects.requireNonNull(preferences, "preferences");
        this.equivalent = Objects.requireNonNull(equivalent, "equivalent");
        this.contextOf = Objects.requireNonNull(contextOf, "contextOf");
        equivalent.checkKnown(tools.specs().stream().map(ToolSpec::name).toList());
        this.offered = tools.specs().stream().filter(s -> equivalent.offered(s.name())).toList();
    }

    @Override
    public List<ToolSpec> specs() {
        return offered;
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        String context = contextOf.apply(trajectoryId);
        List<ToolCall> routed = calls.stream().map(c -> equivalent.groupOf(c.name())
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

    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        Set<String> usedHere = used.remove(trajectoryId);
        preferences.episode(contextOf.apply(trajectoryId), usedHere == null ? Set.of() : usedHere);
        return tools.release(trajectoryId);
    }
}
