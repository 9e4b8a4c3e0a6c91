package dev.toolcoach.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node program (a main class on this test's class path: a tool node, an athlete node) in a JVM of its own; stopped
 * (SIGTERM) with everything it started.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    /** Ends the node and what it started should the test JVM end first (a test killed by a timeout, Ctrl-C). */
    private final Thread orphanGuard;

    private ChildJvm(Process process) {
        this.process = process;
        this.orphanGuard = new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        });
        Runtime.getRuntime().addShutdownHook(orphanGuard);
    }

    /** The java command that runs {@code main} with these arguments. */
    public static List<String> command(Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-DDJL_OFFLINE=true", "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** Starts {@code main}; its output goes to {@code log}. */
    public static ChildJvm start(Class<?> main, Path log, String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(main, args)).redirectErrorStream(true).redirectOutput(log.toFile());
        return new ChildJvm(builder.start());
    }

    /** Starts one whose stdout the test reads. */
    public static ChildJvm startPiped(Class<?> main, Path stderr, String... args) throws IOException {
        return new ChildJvm(new ProcessBuilder(command(main, args)).redirectError(stderr.toFile()).start());
    }

    public Process process() {
        return process;
    }

    /** The first line on stdout, waiting at most {@code deadline}. */
    public String firstLine(Duration deadline) throws Exception {
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

    /** The processes the node started (e.g. MCP servers) whose command line names {@code text}. */
    public List<ProcessHandle> children(String text) {
        return process.descendants().filter(p -> p.isAlive()
                && p.info().arguments().map(a -> String.join(" ", a).contains(text)).orElse(false)).toList();
    }

    @Override
    public void close() throws Exception {
        try {
            Runtime.getRuntime().removeShutdownHook(orphanGuard);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the guard runs anyway
        }
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy(); // SIGTERM: coordinated shutdown closes the suites and their servers
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
        for (ProcessHandle child : started) {
            // a process the node failed to stop (an MCP server) is stopped here, so no test leaves one behind; the test then fails
            if (child.isAlive()) {
                child.destroyForcibly();
                throw new AssertionError("the node left process " + child.pid() + " running");
            }
        }
    }
}
