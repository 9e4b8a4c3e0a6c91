package dev.toolcoach.tools.mcp;

import dev.toolcoach.testkit.McpServers;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MCP servers from npm (the reference servers: everything, filesystem, memory), started over stdio by the
 * suites under test and stopped with them, their tools run through the same executor as built-in suites.
 */
class McpSuitesTest {

    private static final McpServerSpec.Backoff FAST_RESTART = new McpServerSpec.Backoff(Duration.ofMillis(200), Duration.ofSeconds(2));

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) open.get(i).close();
    }

    @Test
    void everythingServerToolsBecomeSpecsAndRunThroughTheExecutor() throws Exception {
        ToolExecutor executor = host(stdio("everything", false, List.of(), McpServers.command("server-everything", "stdio")),
                settings(Duration.ofSeconds(10)));
        List<String> names = executor.specs().stream().map(s -> s.name()).toList();
        assertTrue(names.containsAll(List.of("echo", "get-sum", "get-structured-content", "trigger-long-running-operation")), names.toString());
        var sum = executor.specs().stream().filter(s -> s.name().equals("get-sum")).findFirst().orElseThrow();
        assertEquals(List.of("a", "b"), sum.parameterNames());
        assertEquals("number", sum.parameter("a").orElseThrow().path("type").asText());

        ToolResult echo = call(executor, "t1", "echo", Map.of("message", "hello MCP"));
        assertEquals(ToolResult.Status.OK, echo.status(), echo.text());
        assertTrue(echo.text().contains("hello MCP"), echo.text());
        ToolResult added = call(executor, "t1", "get-sum", Map.of("a", 2, "b", 40));
        assertTrue(added.text().contains("42"), added.text());

        ToolResult structured = call(executor, "t1", "get-structured-content", Map.of("location", "New York"));
        assertEquals(ToolResult.Status.OK, structured.status(), structured.text());
        assertInstanceOf(Map.class, structured.structured(), "structured content reaches rewards as a JSON object");

        // the executor checks arguments against the server's own schema before the server sees them
        ToolResult bad = call(executor, "t1", "get-sum", Map.of("a", "two", "b", 1));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, bad.status(), bad.text());
        var sumStats = executor.metrics().snapshot().stream().filter(s -> s.tool().equals("get-sum")).findFirst().orElseThrow();
        assertEquals(1, sumStats.count(ToolResult.Status.OK));
        assertEquals(1, sumStats.count(ToolResult.Status.INVALID_ARGUMENTS));
    }

    @Test
    void filesystemServerReadsInsideItsFolderAndRefusesOutside() throws Exception {
        Path root = Files.createDirectories(dir.resolve("files"));
        Files.writeString(root.resolve("note.txt"), "the meeting moved to Tuesday");
        ToolExecutor executor = host(stdio("files", false, List.of("read_text_file", "list_directory", "search_files"),
                McpServers.command("server-filesystem", root.toString())), settings(Duration.ofSeconds(10)));
        assertEquals(List.of("read_text_file", "list_directory", "search_files"), executor.specs().stream().map(s -> s.name()).toList(),
                "only the tools the configuration names are offered");

        ToolResult read = call(executor, "t1", "read_text_file", Map.of("path", root.resolve("note.txt").toString()));
        assertEquals(ToolResult.Status.OK, read.status(), read.text());
        assertEquals("the meeting moved to Tuesday", read.text());
        ToolResult listing = call(executor, "t1", "list_directory", Map.of("path", root.toString()));
        assertTrue(listing.text().contains("note.txt"), listing.text());

        Files.writeString(dir.resolve("secret.txt"), "outside");
        ToolResult outside = call(executor, "t1", "read_text_file", Map.of("path", dir.resolve("secret.txt").toString()));
        assertEquals(ToolResult.Status.ERROR, outside.status(), outside.text());
        assertTrue(outside.text().toLowerCase().contains("denied"), outside.text());
        ToolResult unoffered = call(executor, "t1", "write_file", Map.of("path", root.resolve("x").toString(), "content", "x"));
        assertEquals(ToolResult.Status.UNKNOWN_TOOL, unoffered.status());
    }

    @Test
    void memoryServerPerTrajectoryKeepsEachTrajectorysGraphApart() throws Exception {
        McpServerSpec spec = new McpServerSpec("memory", new McpServerSpec.Stdio("node",
                McpServers.command("server-memory").subList(1, 2), Map.of("MEMORY_FILE_PATH", "{session_dir}/memory.jsonl"),
                Optional.empty()), true, List.of(), Duration.ofSeconds(20), FAST_RESTART);
        ToolExecutor executor = host(spec, settings(Duration.ofSeconds(15)));
        Map<String, Object> alice = Map.of("entities", List.of(Map.of("name", "Alice", "entityType", "person",
                "observations", List.of("likes tea"))));
        assertEquals(ToolResult.Status.OK, call(executor, "a", "create_entities", alice).status());
        assertTrue(call(executor, "a", "read_graph", Map.of()).text().contains("likes tea"));
        ToolResult other = call(executor, "b", "read_graph", Map.of());
        assertEquals(ToolResult.Status.OK, other.status(), other.text());
        assertFalse(other.text().contains("Alice"), "trajectory b must not see a's graph: " + other.text());

        executor.finishTrajectory("a"); // its session (process and folder) ends with it
        assertFalse(call(executor, "a", "read_graph", Map.of()).text().contains("Alice"), "a new trajectory a starts empty");
    }

    @Test
    void aServerThatDiesFailsItsCallsCleanlyAndIsRestartedWithBackoff() throws Exception {
        McpServerSpec spec = stdio("memory", false, List.of(), McpServers.command("server-memory"));
        spec = new McpServerSpec(spec.name(), new McpServerSpec.Stdio("node", ((McpServerSpec.Stdio) spec.transport()).args(),
                Map.of("MEMORY_FILE_PATH", dir.resolve("memory.jsonl").toString()), Optional.empty()), false, List.of(),
                // a backoff the polls below cannot miss on a loaded machine (with 200 ms the server was back before one call)
                Duration.ofSeconds(20), new McpServerSpec.Backoff(Duration.ofSeconds(3), Duration.ofSeconds(6)));
        ToolExecutor executor = host(spec, settings(Duration.ofSeconds(15)));
        assertEquals(ToolResult.Status.OK, call(executor, "t", "read_graph", Map.of()).status());

        ProcessHandle server = onlyServerProcess("server-memory");
        server.destroyForcibly();
        server.onExit().join();
        // the exit is noticed without a call; until the backoff is over, calls fail at once, saying why
        ToolResult down = pollUntil(() -> call(executor, "t", "read_graph", Map.of()), r -> r.status() == ToolResult.Status.ERROR);
        assertTrue(down.text().contains("MCP server 'memory'"), down.text());
        assertTrue(down.latencyMillis() < 5_000, "a dead server's call must fail fast, took " + down.latencyMillis() + " ms");

        ToolResult back = pollUntil(() -> call(executor, "t", "read_graph", Map.of()), r -> r.status() == ToolResult.Status.OK);
        assertEquals(ToolResult.Status.OK, back.status());
        assertTrue(onlyServerProcess("server-memory").pid() != server.pid(), "a new process serves the suite");
    }

    @Test
    void aHangingCallEndsAtTheExecutorsDeadlineAndTheServerStaysUsable() throws Exception {
        ToolExecutor executor = host(stdio("everything", false, List.of(), McpServers.command("server-everything", "stdio")),
                settings(Duration.ofSeconds(2)));
        Instant start = Instant.now();
        ToolResult hung = call(executor, "t", "trigger-long-running-operation", Map.of("duration", 60, "steps", 2));
        assertEquals(ToolResult.Status.TIMEOUT, hung.status(), hung.text());
        assertTrue(Duration.between(start, Instant.now()).compareTo(Duration.ofSeconds(10)) < 0);
        ToolResult after = call(executor, "t", "echo", Map.of("message", "still here"));
        assertEquals(ToolResult.Status.OK, after.status(), after.text());
    }

    @Test
    void malformedResultsAreErrorResultsNamingTheServerAndTheTool() throws Exception {
        Path script = Path.of(McpSuitesTest.class.getResource("/mcp/misbehaving-server.mjs").toURI());
        McpServerSpec odd = stdio("odd", false, List.of(), List.of("node", script.toString()));
        ToolExecutor executor = host(new McpServerSpec(odd.name(), odd.transport(), false, List.of(), Duration.ofSeconds(2), FAST_RESTART),
                settings(Duration.ofSeconds(2)));
        for (String tool : List.of("content_not_a_list", "no_content")) {
            ToolResult result = call(executor, "t", tool, Map.of());
            assertEquals(ToolResult.Status.ERROR, result.status(), tool + ": " + result.text());
            assertTrue(result.text().contains("MCP server 'odd' returned a malformed result for '" + tool + "'"), result.text());
        }
        // a line that is not JSON-RPC answers nothing and ends the SDK's reading: the call ends at its deadline,
        // the session fails the ping that follows and is restarted
        ToolResult notJson = call(executor, "t", "not_json", Map.of());
        assertEquals(ToolResult.Status.TIMEOUT, notJson.status(), notJson.text());
        ToolResult fine = pollUntil(() -> call(executor, "t", "fine", Map.of()), r -> r.status() == ToolResult.Status.OK);
        assertEquals("fine", fine.text());
    }

    @Test
    void aServerThatCannotStartOrLacksANamedToolIsOneClearError() {
        // a process that complains on stderr and never answers: it stays alive, so its complaint is read while the
        // initialization waits (a process that exits at once races the SDK, which closes its streams on exit and can
        // drop stderr not yet read: under load this test lost node's "Cannot find module" line that way)
        McpServerSpec ghost = stdio("ghost", false, List.of(), List.of("node", "-e",
                "console.error('Error: no-such-server.js is not an MCP server'); setInterval(() => {}, 1000)"));
        McpServerSpec missing = new McpServerSpec(ghost.name(), ghost.transport(), false, List.of(), Duration.ofSeconds(5), FAST_RESTART);
        ToolException cannot = assertThrows(ToolException.class, () -> McpSuites.open(missing));
        assertTrue(cannot.getMessage().startsWith("MCP server 'ghost' could not be started"), cannot.getMessage());
        assertTrue(cannot.getMessage().contains("no-such-server.js"), "the process's own complaint is quoted: " + cannot.getMessage());

        McpServerSpec wrongTool = stdio("everything", false, List.of("no_such_tool"), McpServers.command("server-everything", "stdio"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> McpSuites.open(wrongTool));
        assertTrue(unknown.getMessage().startsWith("MCP server 'everything' has no tool 'no_such_tool'"), unknown.getMessage());
    }

    private static McpServerSpec stdio(String name, boolean perTrajectory, List<String> tools, List<String> command) {
        return new McpServerSpec(name, new McpServerSpec.Stdio(command.get(0), command.subList(1, command.size()), Map.of(),
                Optional.empty()), perTrajectory, tools, Duration.ofSeconds(20), FAST_RESTART);
    }

    private static ExecutorSettings settings(Duration callTimeout) {
        return new ExecutorSettings(4, 16, callTimeout, 16_000, Duration.ofMinutes(10), 4);
    }

    private ToolExecutor host(McpServerSpec spec, ExecutorSettings settings) throws ToolException {
        BuiltinSuites.Hosted hosted = McpSuites.open(spec);
        open.add(hosted);
        ToolExecutor executor = new ToolExecutor(hosted.suite(), settings);
        open.add(executor);
        return executor;
    }

    private static ToolResult call(ToolExecutor executor, String trajectory, String tool, Map<String, Object> arguments) {
        return executor.call(trajectory, new ToolCall(tool, arguments)).join();
    }

    /** The one running process of this JVM's children whose command line names the server. */
    private static ProcessHandle onlyServerProcess(String server) {
        List<ProcessHandle> matching = ProcessHandle.current().descendants()
                .filter(p -> p.isAlive() && p.info().arguments().map(a -> String.join(" ", a).contains(server)).orElse(false))
                .collect(Collectors.toList());
        assertEquals(1, matching.size(), "processes of " + server + ": " + matching);
        return matching.get(0);
    }

    private static ToolResult pollUntil(java.util.function.Supplier<ToolResult> call, java.util.function.Predicate<ToolResult> done)
            throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(20);
        ToolResult last = call.get();
        while (!done.test(last)) {
            if (Instant.now().isAfter(deadline)) throw new AssertionError("condition not reached by the deadline; last: " + last);
            Thread.sleep(50);
            last = call.get();
        }
        return last;
    }
}
