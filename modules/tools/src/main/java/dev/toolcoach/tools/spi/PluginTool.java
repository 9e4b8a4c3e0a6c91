package dev.toolcoach.tools.spi;

import dev.toolcoach.agent.ToolSpec;

import java.util.Objects;

/** One tool of a {@link ToolPlugin}: routes the call to the trajectory's session of that plugin. */
final class PluginTool implements Tool {

    private final ToolPlugin plugin;
    private final ToolSpec spec;

    PluginTool(ToolPlugin plugin, ToolSpec spec) {
        this.plugin = Objects.requireNonNull(plugin, "plugin");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    @Override
    public ToolSpec spec() {
        return spec;
    }

    @Override
    public ToolOutput call(ToolInvocation invocation) throws Exception {
        ToolSession session = invocation.sessions().sessionFor(plugin);
        // A session holds one trajectory's state; parallel calls of one turn must not interleave in it.
        synchronized (session) {
            return session.call(spec.name(), invocation.arguments());
        }
    }
}
