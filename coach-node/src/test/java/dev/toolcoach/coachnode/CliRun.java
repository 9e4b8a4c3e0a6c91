package dev.toolcoach.coachnode;

import dev.toolcoach.cluster.node.NodeCli;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The coach-node command line in-process, with its out and err captured. */
final class CliRun {

    final CommandLine cli = NodeCli.commandLine(new CoachNodeMain());
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    CliRun() {
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
    }

    int execute(String... args) {
        return cli.execute(args);
    }
}
