package dev.toolcoach.tools.spi;

import java.util.Map;

/**
 * A plugin's state for one trajectory. Calls on one session are serialised by the caller, so a
 * session need not be thread-safe.
 */
public interface ToolSession extends AutoCloseable {

    ToolOutput call(String toolName, Map<String, Object> arguments) throws Exception;

    /** Releases the trajectory's state; must not throw for an already closed session. */
    @Override
    void close();
}
