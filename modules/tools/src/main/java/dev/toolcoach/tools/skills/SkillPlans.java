package dev.toolcoach.tools.skills;

import dev.toolcoach.trace.ToolCall;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Using a skill in a plan: where a planned run of calls makes a skill's calls, the one composite call that replaces
 * them, its parameters taken from the planned calls (the arguments the skill takes from earlier results are left to it).
 */
public final class SkillPlans {

    private SkillPlans() {
    }

    /** The composite call replacing {@code planned} when it is exactly the skill's calls in order, else empty. */
    public static Optional<ToolCall> replace(List<ToolCall> planned, SkillDefinition skill) {
        if (!planned.stream().map(ToolCall::name).toList().equals(skill.tools())) return Optional.empty();
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (int k = 0; k < planned.size(); k++) {
            Map<String, Object> given = planned.get(k).arguments();
            for (Map.Entry<String, ArgumentSource> entry : skill.steps().get(k).arguments().entrySet()) {
                if (entry.getValue() instanceof ArgumentSource.Parameter p && given.containsKey(entry.getKey())) {
                    parameters.putIfAbsent(p.name(), given.get(entry.getKey()));
                }
            }
        }
        return Optional.of(new ToolCall(skill.name(), parameters));
    }
}
