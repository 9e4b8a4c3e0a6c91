package dev.toolcoach.tools.spi;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;

/**
 * Tools that need a lifecycle or per-trajectory state (VerlTool's BaseTool idea): a session is
 * opened for a trajectory on its first call, receives that trajectory's calls, and is closed when
 * the trajectory finishes or sits idle too long.
 */
public interface ToolPlugin {

    /** The tools this plugin serves; each call names one of them. */
    List<ToolSpec> tools();

    ToolSession open(String trajectoryId) throws Exception;
}
