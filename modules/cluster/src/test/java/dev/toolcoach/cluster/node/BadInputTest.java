package dev.toolcoach.cluster.node;

import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.model.TorchRuntime;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each bad input ends the program with a non-zero code and exactly one line naming the problem. */
class BadInputTest {

    @TempDir
    Path dir;

    private record Outcome(int exitCode, String stderr) {
        String onlyLine() {
            String[] lines = stderr.strip().split("\n");
            assertEquals(1, lines.length, "one line on stderr, got:\n" + stderr);
            assertFalse(stderr.contains("Exception") || stderr.contains("\tat "), "no stack trace:\n" + stderr);
            return lines[0];
        }
    }

    private static Outcome run(NodeProgram program, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = NodeCli.commandLine(new NodeRunCommand(program, Map.of()));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Outcome(code, err.toString());
    }

    @Test
    void unknownRole() {
        Outcome outcome = run(NodeProgram.COACH, "--role", "coach,referee");
        assertEquals(NodeRunCommand.CONFIG_ERROR, outcome.exitCode());
        assertEquals("coach-node: unknown role 'referee' (known roles: coach, learner, athlete, tool)", outcome.onlyLine());
    }

    @Test
    void unknownOrMissingDevice() {
        Outcome unknown = run(NodeProgram.COACH, "--device", "tpu");
        assertEquals(NodeRunCommand.CONFIG_ERROR, unknown.exitCode());
        assertEquals("coach-node: toolcoach.device: unknown device 'tpu' (use cpu, cuda or cuda:N)", unknown.onlyLine());
        Outcome missing = run(NodeProgram.COACH, "--device", "cuda:999");
        assertEquals(NodeRunCommand.CONFIG_ERROR, missing.exitCode());
        assertTrue(missing.onlyLine().startsWith("coach-node: toolcoach.device: device 'cuda:999' is not available: PyTorch sees "),
                missing.stderr());
    }

    @Test
    void unknownPrecisionOrOneDjlsOwnJniCannotTrainIn() {
        Outcome unknown = run(NodeProgram.COACH, "--precision", "fp8");
        assertEquals(NodeRunCommand.CONFIG_ERROR, unknown.exitCode());
        assertEquals("coach-node: toolcoach.precision: unknown precision 'fp8' (use auto, f32, f16 or bf16)", unknown.onlyLine());
        Assumptions.assumeTrue(TorchRuntime.current().features().isEmpty(), "this JVM runs on ToolCoach's JNI build, which has bf16");
        Outcome bf16 = run(NodeProgram.ATHLETE, "--precision", "bf16", "--seed", "akka://ToolCoach@127.0.0.1:25520");
        assertEquals(NodeRunCommand.CONFIG_ERROR, bf16.exitCode());
        assertTrue(bf16.onlyLine().startsWith("athlete-node: toolcoach.precision: precision 'bf16' needs ToolCoach's build of DJL's JNI "
                + "(deploy/gpu/install-torch-jni.sh"), bf16.stderr());
    }

    @Test
    void malformedSeedAddress() {
        Outcome outcome = run(NodeProgram.ATHLETE, "--seed", "127.0.0.1:25520");
        assertEquals(NodeRunCommand.CONFIG_ERROR, outcome.exitCode());
        assertEquals("athlete-node: malformed seed node address '127.0.0.1:25520': expected akka://ToolCoach@HOST:PORT",
                outcome.onlyLine());
    }

    @Test
    void clusterPortInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Outcome outcome = run(NodeProgram.COACH, "--port", String.valueOf(taken.getLocalPort()),
                    "--management-port", String.valueOf(FreePorts.pick()));
            assertEquals(NodeRunCommand.START_ERROR, outcome.exitCode());
            assertEquals("coach-node: cluster port 127.0.0.1:" + taken.getLocalPort() + " is already in use", outcome.onlyLine());
        }
    }

    @Test
    void managementPortInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Outcome outcome = run(NodeProgram.COACH, "--port", "0", "--management-port", String.valueOf(taken.getLocalPort()));
            assertEquals(NodeRunCommand.START_ERROR, outcome.exitCode());
            assertEquals("coach-node: management port 127.0.0.1:" + taken.getLocalPort() + " is already in use",
                    outcome.onlyLine());
        }
    }

    @Test
    void missingConfigFile() {
        Path missing = dir.resolve("nope.conf");
        Outcome outcome = run(NodeProgram.TOOL, "--config", missing.toString());
        assertEquals(NodeRunCommand.CONFIG_ERROR, outcome.exitCode());
        assertEquals("tool-node: cannot read config file " + missing + ": no such file", outcome.onlyLine());
    }

    @Test
    void malformedConfigFileNamesTheLine() throws IOException {
        Path file = dir.resolve("broken.conf");
        Files.writeString(file, "akka {\n  cluster.roles = [athlete\n");
        String line = run(NodeProgram.ATHLETE, "--config", file.toString()).onlyLine();
        assertTrue(line.matches("athlete-node: cannot parse config file .*broken\\.conf: 3: .*"), "names file and line: " + line);
    }

    @Test
    void wrongOptionTypeIsOneLineToo() {
        Outcome outcome = run(NodeProgram.COACH, "--port", "twelve");
        assertEquals(NodeRunCommand.CONFIG_ERROR, outcome.exitCode());
        assertTrue(outcome.onlyLine().startsWith("coach-node: Invalid value for option '--port'"), outcome.stderr());
    }
}
