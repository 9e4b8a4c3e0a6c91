package dev.toolcoach.coachnode;

import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolSuite;

/** Opens one built-in tool suite by name, turning every failure into a usage error that names it. */
final class ToolOptions {

    private ToolOptions() {
    }

    static ToolExecutor open(String suite) {
        try {
            ToolSuite opened = BuiltinSuites.open(suite, BuiltinSuites.Options.defaults()).suite();
            return new ToolExecutor(opened, ExecutorSettings.defaults());
        } catch (Exception e) {
            throw new UsageException("cannot open tool suite '" + suite + "': " + e.getMessage());
        }
    }
}
