package dev.toolcoach.tools.skills;

import dev.toolcoach.trace.ToolResult;

import java.util.List;

/**
 * A call sequence that recurs: the tools in order and one occurrence per trajectory it was seen in.
 *
 * @param tools       the tools' names in call order
 * @param occurrences where it was seen, at most one per trajectory, in the order the trajectories were given
 */
public record CallPattern(List<String> tools, List<Occurrence> occurrences) {

    /** One place the pattern occurs: the trajectory, the index of its first call there, and the calls with results. */
    public record Occurrence(String trajectoryId, int start, List<ToolResult> steps) {
        public Occurrence {
            steps = List.copyOf(steps);
        }
    }

    public CallPattern {
        tools = List.copyOf(tools);
        occurrences = List.copyOf(occurrences);
    }

    /** In how many distinct successful trajectories the pattern occurs. */
    public int support() {
        return occurrences.size();
    }

    public int length() {
        return tools.size();
    }
}
