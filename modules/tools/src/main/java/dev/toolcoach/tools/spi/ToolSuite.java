package dev.toolcoach.tools.spi;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.annotated.AnnotatedTools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** A named group of tools served together (one tool server per suite). Tool names are unique in it. */
public final class ToolSuite {

    /** The name rule of the common function-calling APIs, so every tool can be offered to any of them. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final String name;
    private final Map<String, Tool> tools;

    private ToolSuite(String name, Map<String, Tool> tools) {
        this.name = name;
        this.tools = Collections.unmodifiableMap(tools);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public Optional<Tool> tool(String toolName) {
        return Optional.ofNullable(tools.get(toolName));
    }

    public List<String> toolNames() {
        return List.copyOf(tools.keySet());
    }

    public List<ToolSpec> specs() {
        return tools.values().stream().map(Tool::spec).toList();
    }

    @Override
    public String toString() {
        return "ToolSuite[" + name + ": " + String.join(", ", tools.keySet()) + "]";
    }

    public static final class Builder {
        private final String name;
        private final Map<String, Tool> tools = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "suite name");
        }

        public Builder add(Tool tool) {
            if (!NAME.matcher(tool.name()).matches()) {
                throw new IllegalArgumentException("tool name '" + tool.name() + "' in suite '" + name
                        + "' must be 1-64 letters, digits, '_' or '-'");
            }
            Tool previous = tools.putIfAbsent(tool.name(), tool);
            if (previous != null) {
                throw new IllegalArgumentException("suite '" + name + "' already has a tool named '" + tool.name() + "'");
            }
            return this;
        }

        /** Adds every tool method of an object (this project's or LangChain4j's annotations). */
        public Builder addAnnotated(Object toolObject) {
            AnnotatedTools.scan(toolObject).forEach(this::add);
            return this;
        }

        public Builder add(ToolPlugin plugin) {
            List<ToolSpec> declared = new ArrayList<>(plugin.tools());
            if (declared.isEmpty()) {
                throw new IllegalArgumentException("plugin " + plugin.getClass().getName() + " declares no tools");
            }
            declared.forEach(spec -> add(new PluginTool(plugin, spec)));
            return this;
        }

        public ToolSuite build() {
            if (tools.isEmpty()) throw new IllegalArgumentException("suite '" + name + "' has no tools");
            return new ToolSuite(name, new LinkedHashMap<>(tools));
        }
    }
}
