package dev.toolcoach.tools.spi;

import dev.toolcoach.agent.ToolSpec;

/**
 * One callable tool. Arguments reach {@link #call} already validated against
 * {@link ToolSpec#parameters()}. Implementations must be safe to call from several threads.
 */
public interface Tool {

    ToolSpec spec();

    /**
     * Runs the tool. Throw {@link ToolException} for failures the model should read about; any other
     * exception is also reported to the model, by type and message.
     */
    ToolOutput call(ToolInvocation invocation) throws Exception;

    default String name() {
        return spec().name();
    }
}
