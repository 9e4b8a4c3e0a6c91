package dev.toolcoach.agent.adapt;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TILE's competence report: C = α/(α+β) per (context, tool) against the thresholds (below 0.5 the tool needs practice
 * or better documentation, above 0.8 it is mastered; all tools of a context above 0.7: time to explore new tools), and
 * the retirement flag (unused for {@code retireAfter} episodes with C below 0.3). Reported, never applied: nothing here
 * removes or hides a tool.
 */
public final class Competence {
    public static final double NEEDS_PRACTICE_BELOW = 0.5;
    public static final double MASTERED_ABOVE = 0.8;
    public static final double EXPLORE_ALL_ABOVE = 0.7;
    public static final double RETIRE_BELOW = 0.3;

    public enum Level { NEEDS_PRACTICE, LEARNING, MASTERED }

    /** One tool in one context. */
    public record ToolCompetence(String tool, long successes, long failures, double alpha, double beta, double competence,
                                 Level level, long episodesUnused, boolean retire) {
    }

    /** One context: its tools and whether it is time to explore new tools. */
    public record ContextCompetence(String context, List<ToolCompetence> tools, boolean exploreNewTools) {
    }

    private Competence() {
    }

    public static Level level(double c) {
        return c < NEEDS_PRACTICE_BELOW ? Level.NEEDS_PRACTICE : c > MASTERED_ABOVE ? Level.MASTERED : Level.LEARNING;
    }

    /**
     * The report over every context with experience, plus the {@code offered} tools of each (tools never called still
     * show, at the prior).
     *
     * @param retireAfter the N of the retirement flag (episodes unused), at least 1
     */
    public static List<ContextCompetence> report(ToolPreferences preferences, Map<String, ? extends Collection<String>> offered,
                                                 long retireAfter) {
        if (retireAfter < 1) throw new IllegalArgumentException("retire-after must be at least 1 episode, was " + retireAfter);
        Map<String, Set<String>> tools = new LinkedHashMap<>();
        preferences.byContext().forEach((context, byTool) -> tools.computeIfAbsent(context, c -> new LinkedHashSet<>()).addAll(byTool.keySet()));
        offered.forEach((context, names) -> tools.computeIfAbsent(context, c -> new LinkedHashSet<>()).addAll(names));
        List<ContextCompetence> out = new ArrayList<>();
        tools.forEach((context, names) -> {
            List<ToolCompetence> rows = new ArrayList<>();
            for (String tool : names.stream().sorted().toList()) {
                Experience e = preferences.experience(context, tool);
                double a = preferences.alpha(context, tool);
                double b = preferences.beta(context, tool);
                double c = a / (a + b);
                long unused = preferences.episodesUnused(context, tool);
                rows.add(new ToolCompetence(tool, e.successes(), e.failures(), a, b, c, level(c), unused,
                        unused >= retireAfter && c < RETIRE_BELOW));
            }
            out.add(new ContextCompetence(context, rows, !rows.isEmpty() && rows.stream().allMatch(r -> r.competence() > EXPLORE_ALL_ABOVE)));
        });
        return out;
    }
}
