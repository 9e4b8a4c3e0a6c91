package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import dev.toolcoach.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A tool node that cannot host its configured suites stops at once with one line naming the setting. */
class ToolNodeBadInputTest {

    private static final String SEED = "akka://ToolCoach@127.0.0.1:25520";

    @TempDir
    Path dir;

    /** Runs tool-node with {@code hocon} as its config file; returns the exit code and the only line on stderr. */
    private String[] run(String hocon) throws IOException {
        Path conf = Files.writeString(dir.resolve("tool.conf"), hocon);
        StringWriter err = new StringWriter();
        CommandLine cli = NodeCli.commandLine(new NodeRunCommand(NodeProgram.TOOL, Map.of()));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute("--config", conf.toString(), "--seed", SEED, "--port", "0",
                "--management-port", String.valueOf(FreePorts.pick()));
        String[] lines = err.toString().strip().split("\n");
        assertEquals(1, lines.length, "one line on stderr, got:\n" + err);
        assertFalse(err.toString().contains("\tat "), "no stack trace:\n" + err);
        return new String[]{String.valueOf(code), lines[0]};
    }

    private void assertFails(int exitCode, String line, String hocon) throws IOException {
        String[] outcome = run(hocon);
        assertEquals(line, outcome[1]);
        assertEquals(String.valueOf(exitCode), outcome[0]);
    }

    @Test
    void emailSuiteWithoutMailboxes() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.suites includes email but "
                + "toolcoach.tools.email.mailboxes is empty: give the mbox files, maildirs or CSV files to index",
                "toolcoach.tools.suites = [arithmetic, email]");
    }

    @Test
    void missingMailbox() throws IOException {
        Path missing = dir.resolve("nowhere.mbox");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.email.mailboxes: " + missing + " does not exist",
                "toolcoach.tools { suites = [email], email.mailboxes = [\"" + missing + "\"] }");
    }

    @Test
    void unknownSuite() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.suites names 'weather', which is not a built-in "
                + "suite [arithmetic, finance, email, sql]", "toolcoach.tools.suites = [finance, weather]");
    }

    @Test
    void executorLimitOutOfRange() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.executor: maxConcurrentCalls must be >= 1, got 0",
                "toolcoach.tools.executor.max-concurrent-calls = 0");
    }

    @Test
    void mailboxThatCannotBeIndexed() throws IOException {
        Path csv = Files.writeString(dir.resolve("mail.csv"), "file,body\nallen-p/1.,hello\n");
        String[] outcome = run("toolcoach.tools { suites = [arithmetic, email], email.mailboxes = [\"" + csv + "\"] }");
        assertEquals(String.valueOf(NodeRunCommand.START_ERROR), outcome[0]);
        assertEquals("tool-node: cannot open tool suite 'email': CSV mailbox " + csv
                + " has no 'message' column; its columns are [\"file\",\"body\"]", outcome[1]);
    }

    @Test
    void skillFolderThatIsNotAFolder() throws IOException {
        Path missing = dir.resolve("no-skills");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.skills.dir: " + missing + " is not a folder",
                "toolcoach.tools { suites = [finance], skills.dir = \"" + missing + "\" }");
    }

    @Test
    void skillDefinitionThatCannotBeUsed() throws IOException {
        Path skill = Files.createDirectories(dir.resolve("skills/broken")).resolve("skill.json");
        Files.writeString(skill, "{\"name\": \"broken\", \"steps\": [");
        String[] outcome = run("toolcoach.tools { suites = [finance], skills.dir = \"" + dir.resolve("skills") + "\" }");
        assertEquals(String.valueOf(NodeRunCommand.START_ERROR), outcome[0]);
        assertEquals("tool-node: cannot open tool suite 'finance': " + skill + ": not JSON: not valid JSON at column 30",
                outcome[1]);
    }
}
