package dev.toolcoach.brain;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;

import java.util.List;

/** The real finance suite, hosted in-process, as the tests' tools. */
public final class FinanceTools {

    private FinanceTools() {
    }

    public static ToolExecutor executor() {
        try {
            return new ToolExecutor(BuiltinSuites.open("finance", BuiltinSuites.Options.defaults()).suite(),
                    ExecutorSettings.defaults());
        } catch (Exception e) {
            throw new IllegalStateException("cannot open the finance suite", e);
        }
    }

    public static List<ToolSpec> specs() {
        try (ToolExecutor tools = executor()) {
            return tools.specs();
        }
    }
}
