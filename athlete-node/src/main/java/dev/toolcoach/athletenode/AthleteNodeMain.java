package dev.toolcoach.athletenode;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import picocli.CommandLine.Command;

/** The athlete node program: joins the cluster with role athlete and runs the athlete actors. */
@Command(name = "athlete-node", mixinStandardHelpOptions = true,
        description = "ToolCoach athlete node: runs athletes (role athlete); needs --seed.")
public final class AthleteNodeMain extends NodeRunCommand {

    public AthleteNodeMain() {
        super(NodeProgram.ATHLETE, System.getenv());
    }

    public static void main(String[] args) {
        System.exit(NodeCli.execute(new AthleteNodeMain(), args));
    }
}
