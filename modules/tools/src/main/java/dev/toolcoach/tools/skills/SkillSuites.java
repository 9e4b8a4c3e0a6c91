package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.spi.ToolSuite;

import java.util.List;

/** A suite together with the composites crystallised over it: they join the suite as ordinary tools. */
public final class SkillSuites {

    private SkillSuites() {
    }

    /**
     * The suite's tools plus one {@link CompositeTool} per skill.
     *
     * @throws IllegalArgumentException when a skill is over another suite, calls a tool the suite lacks, or is named like one
     */
    public static ToolSuite extend(ToolSuite base, List<SkillDefinition> skills) {
        if (skills.isEmpty()) return base;
        ToolSuite.Builder builder = ToolSuite.builder(base.name());
        base.toolNames().forEach(name -> builder.add(base.tool(name).orElseThrow()));
        for (SkillDefinition skill : skills) {
            if (!skill.suite().equals(base.name())) {
                throw new IllegalArgumentException("skill '" + skill.name() + "' is over suite '" + skill.suite()
                        + "', not '" + base.name() + "'");
            }
            builder.add(new CompositeTool(skill, base));
        }
        return builder.build();
    }
}
