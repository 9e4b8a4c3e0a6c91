package dev.toolcoach.toolnode;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import picocli.CommandLine.Command;

/** The tool node program: joins the cluster with role tool and hosts one tool server per suite. */
@Command(name = "tool-node", mixinStandardHelpOptions = true,
        description = "ToolCoach tool node: hosts tool servers (role tool); needs --seed.")
public final class ToolNodeMain extends NodeRunCommand {

    public ToolNodeMain() {
        super(NodeProgram.TOOL, System.getenv());
    }

    public static void main(String[] args) {
        System.exit(NodeCli.execute(new ToolNodeMain(), args));
    }
}
