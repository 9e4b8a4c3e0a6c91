package dev.toolcoach.toolnode;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import picocli.CommandLine.Command;

/**
 * The tool node program: joins the cluster with role tool and hosts one tool server per suite; or, as
 * {@code tool-node mcp}, offers the same suites as an MCP server.
 */
@Command(name = "tool-node", mixinStandardHelpOptions = true, subcommands = McpCommand.class,
        description = "ToolCoach tool node: hosts tool servers (role tool); needs --seed. `tool-node mcp`: the suites as an MCP server.")
public final class ToolNodeMain extends NodeRunCommand {

    /** Logs on stderr, for `mcp`: over stdio, stdout carries only the protocol. */
    static final String MCP_LOGBACK_CONFIG = "tool-node-mcp-logback.xml";

    public ToolNodeMain() {
        super(NodeProgram.TOOL, System.getenv());
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("mcp") && System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", MCP_LOGBACK_CONFIG);
        }
        System.exit(NodeCli.execute(new ToolNodeMain(), args));
    }
}
