package dev.toolcoach.cluster.node;

import picocli.CommandLine;

/**
 * Runs a node program's command line: usage mistakes and unexpected failures become one line on
 * stderr and an exit code, never a stack trace.
 */
public final class NodeCli {

    private NodeCli() {
    }

    public static CommandLine commandLine(NodeRunCommand command) {
        CommandLine cli = new CommandLine(command).setCommandName(command.program().name());
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println(name(e.getCommandLine()) + ": " + e.getMessage() + " (see --help)");
            return NodeRunCommand.CONFIG_ERROR;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(name(commandLine) + ": failed: " + e);
            return 1;
        });
        return cli;
    }

    /** Sets DJL's offline switches (later subcommands load models), then runs the command. */
    public static int execute(NodeRunCommand command, String... args) {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        return commandLine(command).execute(args);
    }

    private static String name(CommandLine commandLine) {
        return commandLine.getCommandSpec().root().name();
    }
}
