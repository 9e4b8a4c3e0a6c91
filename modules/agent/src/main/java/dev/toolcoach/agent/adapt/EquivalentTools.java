package dev.toolcoach.agent.adapt;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Groups of tools declared equivalent (same purpose, same arguments): the candidates Thompson sampling chooses among.
 * The agent is offered each group's first tool; a call to any member is served by the member sampling picks.
 */
public final class EquivalentTools {
    private final List<List<String>> groups;
    private final Map<String, List<String>> groupOf = new HashMap<>();

    /** @throws IllegalArgumentException naming the group and the tool of a group too small or a tool in two groups */
    public EquivalentTools(List<List<String>> groups) {
        this.groups = groups.stream().map(List::copyOf).toList();
        for (int i = 0; i < this.groups.size(); i++) {
            List<String> group = this.groups.get(i);
            if (group.size() < 2) throw new IllegalArgumentException("equivalent[" + i + "] needs at least two tools, has " + group.size());
            for (int j = 0; j < group.size(); j++) {
                String tool = group.get(j);
                if (groupOf.put(tool, group) != null) {
                    throw new IllegalArgumentException("equivalent[" + i + "][" + j + "]: tool '" + tool + "' is in two groups");
                }
            }
        }
    }

    public static EquivalentTools none() {
        return new EquivalentTools(List.of());
    }

    /** @throws IllegalArgumentException naming the group and the tool when a group names a tool not in {@code known} */
    public void checkKnown(Collection<String> known) {
        for (int i = 0; i < groups.size(); i++) {
            for (int j = 0; j < groups.get(i).size(); j++) {
                String tool = groups.get(i).get(j);
                if (!known.contains(tool)) {
                    throw new IllegalArgumentException("equivalent[" + i + "][" + j + "]: unknown tool '" + tool + "' (known: "
                            + known.stream().sorted().toList() + ")");
                }
            }
        }
    }

    public List<List<String>> groups() {
        return groups;
    }

    /** The group of {@code tool}, if it is in one. */
    public Optional<List<String>> groupOf(String tool) {
        return Optional.ofNullable(groupOf.get(tool));
    }

    /** Whether the agent is offered {@code tool}: any tool outside the groups, and each group's first. */
    public boolean offered(String tool) {
        List<String> group = groupOf.get(tool);
        return group == null || group.get(0).equals(tool);
    }
}
