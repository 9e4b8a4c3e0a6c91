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
 * Accuracy per oracle route as text, a row per route: a job's with a column per evaluation (where the errors are, and
 * which of them training removed), or several runs' pooled.
 */
public final class OracleRouteTable {
    private static final String HEAD = "oracle's calls";
    private static final String POOLED_HEAD = "oracle's calls, all runs";

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
                line.append(cell(score(scores.get(route))));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /**
     * Runs pooled ({@link RunComparison#byRoute}): per route the right answers over every run's test questions after the
     * warm-up and after training, and the lowest and highest run after training; no lines when no run has routes.
     */
    public static List<String> pooledLines(List<RunComparison.RoutePool> pools) {
        if (pools.isEmpty()) return List.of();
        int width = Math.max(POOLED_HEAD.length(), pools.stream().mapToInt(p -> p.route().length()).max().orElse(0));
        List<String> lines = new ArrayList<>();
        lines.add(pad(POOLED_HEAD, width) + cell("after warm-up") + cell("after training") + cell("range over runs"));
        for (RunComparison.RoutePool pool : pools) {
            lines.add(pad(pool.route(), width) + cell(score(pool.warmup())) + cell(score(pool.trained()))
                    + cell(pool.runs() == 0 ? "-" : String.format(Locale.ROOT, "%.1f-%.1f%% (%d)", 100 * pool.lowest(),
                    100 * pool.highest(), pool.runs())));
        }
        return lines;
    }

    private static String score(RouteScore score) {
        return score == null ? "-" : String.format(Locale.ROOT, "%.1f%% (%d/%d)", 100 * score.accuracy(), score.correct(), score.examples());
    }

    private static String pad(String text, int width) {
        return String.format(Locale.ROOT, "%-" + width + "s", text);
    }

    private static String cell(String text) {
        return String.format(Locale.ROOT, " %18s", text);
    }
}
