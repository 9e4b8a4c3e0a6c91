package dev.toolcoach.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The third-party MCP servers from npm that tests start (deploy/mcp: pinned in package.json and
 * package-lock.json). Installed with {@code npm ci} on first use when {@code .ci/run} has not done it;
 * tests that need them skip when Node.js is not installed.
 */
public final class McpServers {

    private static final Object INSTALL = new Object();

    private McpServers() {
    }

    /** The command line that starts a server over stdio: {@code node <its entry point> args...}. */
    public static List<String> command(String server, String... args) {
        Path entry = installed().resolve("node_modules/@modelcontextprotocol").resolve(server).resolve("dist/index.js");
        if (!Files.isRegularFile(entry)) throw new IllegalArgumentException("no MCP server " + server + " at " + entry);
        List<String> command = new ArrayList<>(List.of("node", entry.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** The deploy/mcp folder with its node_modules installed. */
    public static Path installed() {
        String root = System.getProperty("toolcoach.mcp.servers");
        assumeTrue(root != null, "system property toolcoach.mcp.servers is not set: skipping MCP test");
        Path folder = Path.of(root);
        assumeTrue(onPath("node") && onPath("npm"), "Node.js is not installed: skipping MCP test");
        synchronized (INSTALL) {
            if (!Files.isDirectory(folder.resolve("node_modules/@modelcontextprotocol"))) {
                run(folder, List.of("npm", "ci", "--no-audit", "--no-fund"));
            }
        }
        return folder;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) return true;
        }
        return false;
    }

    private static void run(Path folder, List<String> command) {
        try {
            // not the test JVM's own stdin and stdout: surefire talks to its forked JVM through them
            Path log = Files.createTempFile("npm-ci-", ".log");
            Process process = new ProcessBuilder(command).directory(folder.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " in " + folder + " did not finish in 5 minutes (output: " + log + ")");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " in " + folder + " exited " + process.exitValue()
                        + " (output: " + log + ")");
            }
            Files.delete(log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing MCP servers", e);
        }
    }
}
