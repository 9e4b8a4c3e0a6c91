package dev.toolcoach.tools.spi;

/** The open plugin sessions of one trajectory; a plugin's session is opened on its first call. */
public interface SessionScope {
    ToolSession sessionFor(ToolPlugin plugin) throws Exception;
}
