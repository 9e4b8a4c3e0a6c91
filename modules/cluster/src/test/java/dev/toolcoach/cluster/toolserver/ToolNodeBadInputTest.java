package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolMethod;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void hpoWithoutItsDatasets() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.suites includes hpo but toolcoach.tools.hpo.data-dir is"
                + " empty: give the folder of its datasets (the shared data's hpo/)", "toolcoach.tools.suites = [hpo]");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.hpo.data-dir: " + dir + " holds no readable breast_cancer.csv",
                "toolcoach.tools { suites = [hpo], hpo.data-dir = \"" + dir + "\" }");
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
                + "suite [arithmetic, finance, email, sql, hpo]", "toolcoach.tools.suites = [finance, weather]");
    }

    @Test
    void mcpServerWithBothCommandAndUrl() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.mcp.servers.files needs exactly one of command "
                + "(a process over stdio) or url (streamable HTTP)",
                "toolcoach.tools.mcp.servers.files { command = node, url = \"http://127.0.0.1:1/mcp\" }");
    }

    @Test
    void mcpServerSettingsOutOfPlace() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.mcp.servers.files.sessions is 'each', must be shared "
                + "or per-trajectory", "toolcoach.tools.mcp.servers.files { command = node, sessions = each }");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.mcp.servers.web.args is for command servers, not url ones",
                "toolcoach.tools.mcp.servers.web { url = \"http://127.0.0.1:1/mcp\", args = [x] }");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.mcp.servers.sql has the name of a built-in suite; "
                + "name it otherwise", "toolcoach.tools.mcp.servers.sql { command = node }");
    }

    @Test
    void mcpServerThatCannotStart() throws IOException {
        String[] outcome = run("toolcoach.tools.mcp.servers.ghost { command = \"" + dir.resolve("no-such-program") + "\" }");
        assertEquals(String.valueOf(NodeRunCommand.START_ERROR), outcome[0]);
        assertEquals("tool-node: cannot host MCP server 'ghost': MCP server 'ghost' could not be started: command " + dir.resolve("no-such-program") + " is not an executable file",
                outcome[1]);
    }

    /** A tool class of ToolCoach's annotations, for the name clashes. */
    public static final class Greeter {
        @ToolMethod(description = "Greets someone")
        public String greet(@Param("who") String name) {
            return "hello " + name;
        }
    }

    public static final class NoTools {
    }

    public static final class NeedsArgument {
        public NeedsArgument(String key) {
        }

        @ToolMethod(description = "Greets someone")
        public String greet(@Param("who") String name) {
            return name;
        }
    }

    public static final class FailingConstructor {
        public FailingConstructor() {
            throw new IllegalStateException("no API key");
        }

        @ToolMethod(description = "Greets someone")
        public String greet(@Param("who") String name) {
            return name;
        }
    }

    @Test
    void toolClassThatCannotBeASuite() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.booking: class com.acme.BookingTools is not on "
                + "the class path", "toolcoach.tools.classes.booking = com.acme.BookingTools");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.booking: " + NeedsArgument.class.getName()
                + " has no public no-argument constructor", "toolcoach.tools.classes.booking = \"" + NeedsArgument.class.getName() + "\"");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.booking: " + NoTools.class.getName()
                + " has no public method annotated @ToolMethod or LangChain4j @Tool",
                "toolcoach.tools.classes.booking = \"" + NoTools.class.getName() + "\"");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.booking must be a class name, e.g. "
                + "\"com.acme.BookingTools\"", "toolcoach.tools.classes.booking = [com.acme.BookingTools]");
    }

    @Test
    void toolClassWhoseConstructorFails() throws IOException {
        String[] outcome = run("toolcoach.tools.classes.booking = \"" + FailingConstructor.class.getName() + "\"");
        assertEquals(String.valueOf(NodeRunCommand.START_ERROR), outcome[0]);
        assertEquals("tool-node: cannot open tool suite 'booking': the constructor of " + FailingConstructor.class.getName()
                + " failed: java.lang.IllegalStateException: no API key", outcome[1]);
    }

    @Test
    void toolClassNamedLikeAnotherSuite() throws IOException {
        String greeter = "\"" + Greeter.class.getName() + "\"";
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.finance has the name of a built-in suite; "
                + "name it otherwise", "toolcoach.tools { suites = [], classes.finance = " + greeter + " }");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.classes.greet has the name of "
                + "toolcoach.tools.mcp.servers.greet; name one otherwise",
                "toolcoach.tools { classes.greet = " + greeter + ", mcp.servers.greet { command = node } }");
    }

    @Test
    void executorLimitOutOfRange() throws IOException {
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.executor: maxConcurrentCalls must be >= 1, got 0",
                "toolcoach.tools.executor.max-concurrent-calls = 0");
        assertFails(NodeRunCommand.CONFIG_ERROR, "tool-node: toolcoach.tools.sql.executor: maxQueuedCalls must be >= 0, got -1",
                "toolcoach.tools.sql.executor.max-queued-calls = -1");
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
