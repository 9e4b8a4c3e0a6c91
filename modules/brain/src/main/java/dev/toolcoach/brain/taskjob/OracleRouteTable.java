package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.eval.EvaluationReport.RouteScore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A job's accuracy per oracle route as text, a row per route and a column per evaluation: where the errors are, and
 * which of them training removed.
 */
public final class OracleRouteTable {
    private static final String HEAD = "oracle's calls";

    private OracleRouteTable() {
    }

    /** The table's lines; none when no evaluation has oracle routes. */
    public static List<String> lines(Map<String, EvalRecord> evaluations) {
        Map<String, Map<String, RouteScore>> byEvaluation = new LinkedHashMap<>();
        evaluations.forEach((name, record) -> {
            if (record.byOracleRoute() != null) byEvaluation.put(name, record.byOracleRoute());
        });
        Set<String> routes = new TreeSet<>();
        byEvaluation.values().forEach(scores -> routes.addAll(scores.keySet()));
        if (routes.isEmpty()) return List.of();
        int width = Math.max(HEAD.length(), routes.stream().mapToInt(String::length).max().orElse(0));
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(pad(HEAD, width));
        byEvaluation.keySet().forEach(name -> line.append(cell(name)));
        lines.add(line.toString());
        for (String route : routes) {
            line.setLength(0);
            line.append(pad(route, width));
            for (Map<String, RouteScore> scores : byEvaluation.values()) {
                RouteScore score = scores.get(route);
                line.append(cell(score == null ? "-"
                        : String.format(Locale.ROOT, "%.1f%% (%d/%d)", 100 * score.accuracy(), score.correct(), score.examples())));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static String pad(String text, int width) {
        return String.format(Locale.ROOT, "%-" + width + "s", text);
    }

    private static String cell(String text) {
        return String.format(Locale.ROOT, " %18s", text);
    }
}
