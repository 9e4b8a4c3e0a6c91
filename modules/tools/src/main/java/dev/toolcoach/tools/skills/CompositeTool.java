package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.schema.SchemaValidator;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A crystallised skill as an ordinary tool: it runs its steps on the suite's own tools in the caller's trajectory
 * (so stateful tools see one trajectory), each step's arguments checked against that tool's schema as the executor
 * checks a model's call, and answers with the last step's output. The executor that runs the composite applies
 * its deadline and output cap to the whole; a failing step fails the composite, naming the step.
 */
public final class CompositeTool implements Tool {

    private final SkillDefinition definition;
    private final ToolSpec spec;
    private final List<Tool> steps;

    /** @throws IllegalArgumentException when a step names a tool the suite does not have, or a source no earlier step fills */
    public CompositeTool(SkillDefinition definition, ToolSuite base) {
        this.definition = definition;
        this.spec = new ToolSpec(definition.name(), definition.description(), definition.parameters());
        List<Tool> tools = new ArrayList<>();
        for (int k = 0; k < definition.steps().size(); k++) {
            SkillDefinition.Step step = definition.steps().get(k);
            int number = k + 1;
            tools.add(base.tool(step.tool()).orElseThrow(() -> new IllegalArgumentException("skill '" + definition.name()
                    + "': step " + number + " calls '" + step.tool() + "', which suite '" + base.name() + "' does not have")));
            step.arguments().forEach((argument, source) -> {
                if (source instanceof ArgumentSource.FromStep from && (from.step() < 1 || from.step() >= number)) {
                    throw new IllegalArgumentException("skill '" + definition.name() + "': step " + number + " argument '"
                            + argument + "' comes from step " + from.step() + ", which is not an earlier step");
                }
                if (source instanceof ArgumentSource.Parameter p && !spec.parameterNames().contains(p.name())) {
                    throw new IllegalArgumentException("skill '" + definition.name() + "': step " + number + " argument '"
                            + argument + "' is parameter '" + p.name() + "', which the skill does not declare");
                }
            });
        }
        this.steps = List.copyOf(tools);
    }

    public SkillDefinition definition() {
        return definition;
    }

    @Override
    public ToolSpec spec() {
        return spec;
    }

    @Override
    public ToolOutput call(ToolInvocation invocation) throws Exception {
        List<ToolOutput> outputs = run(invocation);
        return outputs.get(outputs.size() - 1);
    }

    /** Runs every step; the outputs in step order (the validator compares each with the recorded one). */
    List<ToolOutput> run(ToolInvocation invocation) throws Exception {
        List<ToolOutput> outputs = new ArrayList<>();
        for (int k = 0; k < steps.size(); k++) {
            Tool tool = steps.get(k);
            Map<String, Object> arguments = arguments(definition.steps().get(k), invocation.arguments(), outputs, k + 1);
            List<String> problems = SchemaValidator.validate(tool.spec().parameters(), arguments);
            if (!problems.isEmpty()) {
                throw new ToolException("step " + (k + 1) + " (" + tool.name() + ") got invalid arguments: " + String.join("; ", problems));
            }
            try {
                outputs.add(tool.call(new ToolInvocation(invocation.trajectoryId(), arguments, invocation.sessions())));
            } catch (ToolException e) {
                throw new ToolException("step " + (k + 1) + " (" + tool.name() + ") failed: " + e.getMessage());
            }
        }
        return outputs;
    }

    private Map<String, Object> arguments(SkillDefinition.Step step, Map<String, Object> given, List<ToolOutput> earlier,
                                          int number) throws ToolException {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (Map.Entry<String, ArgumentSource> entry : step.arguments().entrySet()) {
            if (entry.getValue() instanceof ArgumentSource.Parameter p) {
                if (given.containsKey(p.name())) arguments.put(entry.getKey(), given.get(p.name()));
            } else if (entry.getValue() instanceof ArgumentSource.FromStep from) {
                JsonNode value = JsonValues.at(JsonValues.tree(earlier.get(from.step() - 1).structured()), from.pointer());
                if (value.isMissingNode()) {
                    throw new ToolException("step " + number + " (" + step.tool() + ") needs '" + entry.getKey() + "' from step "
                            + from.step() + "'s result at " + from.pointer() + ", which it does not have; step " + from.step()
                            + " returned: " + abbreviate(earlier.get(from.step() - 1).text()));
                }
                arguments.put(entry.getKey(), JsonValues.plain(value));
            }
        }
        return arguments;
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
