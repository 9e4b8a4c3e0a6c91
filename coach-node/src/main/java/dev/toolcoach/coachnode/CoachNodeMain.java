package dev.toolcoach.coachnode;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/**
 * The coach node program. Without a subcommand it runs the node (like {@code run}); each job
 * (train, generate, serve, eval, ...) is added as one more class in {@code subcommands}.
 */
@Command(name = "coach-node", mixinStandardHelpOptions = true,
        description = "ToolCoach coach node: runs the coach and the learner (roles coach, learner).",
        subcommands = {CoachNodeMain.Run.class, GenerateCommand.class, ServeCommand.class, BfclEvalCommand.class,
                GenerateTasksCommand.class, DistillCommand.class, TrainCommand.class, EvalCommand.class, RenderCommand.class,
                CheckpointsCommand.class, TracesCommand.class, ToolsCommand.class, SkillsCommand.class, RunsCommand.class,
                DoctorCommand.class, MergeCommand.class, HelpCommand.class})
public final class CoachNodeMain extends NodeRunCommand {

    /** Logs go to stderr (coach-node-logback.xml) unless the user picked a configuration. */
    static final String LOGBACK_CONFIG = "coach-node-logback.xml";

    public CoachNodeMain() {
        super(NodeProgram.COACH, System.getenv());
    }

    public static void main(String[] args) {
        // before any logger or DJL class loads: stdout carries command output only, and DJL stays offline
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGBACK_CONFIG);
        }
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        System.exit(NodeCli.execute(new CoachNodeMain(), args));
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Start the coach node and form or join the cluster (the default).")
    public static final class Run extends NodeRunCommand {
        public Run() {
            super(NodeProgram.COACH, System.getenv());
        }
    }
}
