package dev.toolcoach.toolnode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A tool-node program in a JVM of its own, on this test's class path; stopped (SIGTERM) with everything it started. */
final class ChildJvm implements AutoCloseable {

    private final Process process;

    private ChildJvm(Process process) {
        this.process = process;
    }

    /** The java command that runs ToolNodeMain with these arguments. */
    static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-DDJL_OFFLINE=true", "-cp", System.getProperty("java.class.path"),
                ToolNodeMain.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** Starts a tool node; its output goes to {@code log}. */
    static ChildJvm start(Path log, String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        return new ChildJvm(builder.start());
    }

    /** Starts one whose stdout the test reads. */
    static ChildJvm startPiped(Path stderr, String... args) throws IOException {
        return new ChildJvm(new ProcessBuilder(command(args)).redirectError(stderr.toFile()).start());
    }

    Process process() {
        return process;
    }

    /** The first line on stdout, waiting at most {@code deadline}. */
    String firstLine(Duration deadline) throws Exception {
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var line = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return line.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The processes the node started (MCP servers) whose command line names {@code text}. */
    List<ProcessHandle> children(String text) {
        return process.descendants().filter(p -> p.isAlive()
                && p.info().arguments().map(a -> String.join(" ", a).contains(text)).orElse(false)).toList();
    }

    @Override
    public void close() throws Exception {
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy(); // SIGTERM: coordinated shutdown closes the suites and their servers
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
        for (ProcessHandle child : started) {
            // a server the node failed to stop is stopped here, so no test leaves one behind; the test then fails
            if (child.isAlive()) {
                child.destroyForcibly();
                throw new AssertionError("the tool node left MCP server process " + child.pid() + " running");
            }
        }
    }
}
