package dev.toolcoach.coachnode;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeRunCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoachNodeMainTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = NodeCli.commandLine(new CoachNodeMain());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new String[]{String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void helpListsTheRunSubcommandAndTheNodeOptions() {
        String[] result = run("--help");
        assertEquals("0", result[0]);
        assertTrue(result[1].startsWith("Usage: coach-node"), result[1]);
        assertTrue(result[1].contains("run ") && result[1].contains("--seed"), result[1]);
        for (String job : new String[]{"generate", "serve", "bfcl-eval", "generate-tasks", "distill"}) {
            assertTrue(result[1].contains("  " + job + " "), job + " missing from\n" + result[1]);
        }
    }

    @Test
    void subcommandErrorsAreOneLineWithTheProgramName() {
        String[] result = run("run", "--role", "umpire");
        assertEquals(String.valueOf(NodeRunCommand.CONFIG_ERROR), result[0]);
        assertEquals("coach-node: unknown role 'umpire' (known roles: coach, learner, athlete, tool)", result[2].strip());
    }

    @Test
    void everyCommandThatLoadsAModelTakesADeviceAndRefusesAnUnknownOne() {
        for (String job : new String[]{"generate", "serve", "bfcl-eval", "distill", "train", "eval", "run"}) {
            String[] help = run(job, "--help");
            assertTrue(help[1].contains("--device"), job + " has no --device:\n" + help[1]);
            String[] result = run(job, "--device", "npu");
            assertEquals(String.valueOf(NodeRunCommand.CONFIG_ERROR), result[0], job + ": " + result[2]);
            assertTrue(result[2].strip().lines().count() == 1 && result[2].contains("unknown device 'npu' (use cpu, cuda or cuda:N)"),
                    job + ": " + result[2]);
        }
    }
}
