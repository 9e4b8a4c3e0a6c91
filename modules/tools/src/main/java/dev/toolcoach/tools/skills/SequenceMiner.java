package dev.toolcoach.tools.skills;

import dev.toolcoach.trace.ToolResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the call sequences that successful trajectories share: every contiguous run of {@code minLength} to
 * {@code maxLength} calls that all succeeded, counted once per trajectory, kept when at least {@code minSupport}
 * trajectories hold it. A pattern inside a longer kept pattern with the same support is dropped (the longer one
 * says more); the rest are returned most supported first, then longest, then by name.
 */
public final class SequenceMiner {

    private final int minLength;
    private final int maxLength;
    private final int minSupport;

    public SequenceMiner(int minLength, int maxLength, int minSupport) {
        if (minLength < 2) throw new IllegalArgumentException("min length must be at least 2 calls, got " + minLength);
        if (maxLength < minLength) {
            throw new IllegalArgumentException("max length " + maxLength + " is below min length " + minLength);
        }
        if (minSupport < 1) throw new IllegalArgumentException("min support must be at least 1 trajectory, got " + minSupport);
        this.minLength = minLength;
        this.maxLength = maxLength;
        this.minSupport = minSupport;
    }

    public List<CallPattern> mine(List<SkillTrajectory> trajectories) {
        Map<List<String>, List<CallPattern.Occurrence>> seen = new LinkedHashMap<>();
        for (SkillTrajectory t : trajectories) {
            List<ToolResult> calls = t.results();
            Map<List<String>, CallPattern.Occurrence> first = new LinkedHashMap<>();
            for (int start = 0; start < calls.size(); start++) {
                for (int end = start + minLength; end <= Math.min(calls.size(), start + maxLength); end++) {
                    List<ToolResult> run = calls.subList(start, end);
                    // a run with a failed call is not a recipe worth repeating
                    if (!run.stream().allMatch(ToolResult::ok)) break;
                    List<String> names = run.stream().map(r -> r.call().name()).toList();
                    first.putIfAbsent(names, new CallPattern.Occurrence(t.id(), start, run));
                }
            }
            first.forEach((names, occurrence) -> seen.computeIfAbsent(names, k -> new ArrayList<>()).add(occurrence));
        }
        List<CallPattern> frequent = new ArrayList<>();
        seen.forEach((names, occurrences) -> {
            if (occurrences.size() >= minSupport) frequent.add(new CallPattern(names, occurrences));
        });
        List<CallPattern> kept = frequent.stream()
                .filter(p -> frequent.stream().noneMatch(longer -> longer.length() > p.length()
                        && longer.support() == p.support() && contains(longer.tools(), p.tools())))
                .sorted(Comparator.comparingInt(CallPattern::support).reversed()
                        .thenComparing(Comparator.comparingInt(CallPattern::length).reversed())
                        .thenComparing(p -> String.join(",", p.tools())))
                .toList();
        return kept;
    }

    private static boolean contains(List<String> longer, List<String> shorter) {
        return java.util.Collections.indexOfSubList(longer, shorter) >= 0;
    }
}
