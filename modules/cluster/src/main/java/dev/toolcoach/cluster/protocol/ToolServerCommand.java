package dev.toolcoach.cluster.protocol;

/** Everything a tool server actor accepts; tool execution requests are added here by the tools protocol. */
public interface ToolServerCommand {
}
