package dev.toolcoach.bench.tools;

import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.mcp.McpServerSpec;
import dev.toolcoach.tools.mcp.McpSuites;
import dev.toolcoach.tools.mcp.McpToolServer;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * What hosting a tool in an MCP server costs per call: the same work (adding two numbers) as the native
 * arithmetic suite's {@code add} and as the npm everything server's {@code get-sum} over stdio, each through a
 * tool node's executor, sequential calls after a warm-up; latency percentiles in microseconds. The cluster hop
 * (Artery, CBOR) is the same for both, so the difference is the MCP overhead. Then concurrency: the arithmetic suite
 * served by ToolCoach's own stdio MCP server ({@link McpToolServer}, a JVM of its own, as {@code tool-node mcp} runs)
 * under 1 and {@value #CONCURRENT} callers at once over its one session: throughput, and every call must be answered
 * (answers sent at the same moment were once lost there).
 *
 * <p>Run: {@code java -cp ... dev.toolcoach.bench.tools.McpOverheadBench [deploy/mcp] [calls]} (default 1,000 calls
 * after 200 warm-up calls; {@code npm ci --prefix deploy/mcp} first).
 */
public final class McpOverheadBench {

    private static final int WARMUP = 200;
    private static final int CONCURRENT = 32;

    private McpOverheadBench() {
    }

    public static void main(String[] args) throws Exception {
        Path servers = Path.of(args.length > 0 ? args[0] : "deploy/mcp");
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        Path everything = servers.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        if (!Files.isRegularFile(everything)) {
            System.err.println("no MCP everything server at " + everything.toAbsolutePath() + " (run npm ci --prefix " + servers + ")");
            System.exit(2);
        }
        McpServerSpec spec = new McpServerSpec("everything", new McpServerSpec.Stdio("node", List.of(everything.toString(), "stdio"),
                Map.of(), Optional.empty()), false, List.of("get-sum"), Duration.ofSeconds(30),
                new McpServerSpec.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)));
        try (BuiltinSuites.Hosted mcp = McpSuites.open(spec);
             ToolExecutor viaMcp = new ToolExecutor(mcp.suite(), ExecutorSettings.defaults());
             ToolExecutor nativeSuite = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults())) {
            long[] nativeMicros = measure(nativeSuite, "add", calls);
            long[] mcpMicros = measure(viaMcp, "get-sum", calls);
            System.out.printf("per-call latency through the executor, %d sequential calls after %d warm-up (microseconds)%n", calls, WARMUP);
            report("native arithmetic add", nativeMicros);
            report("MCP get-sum (stdio, Node.js)", mcpMicros);
            System.out.printf("MCP overhead per call: median %d us%n", percentile(mcpMicros, 50) - percentile(nativeMicros, 50));
        }
        McpServerSpec own = new McpServerSpec("toolcoach", new McpServerSpec.Stdio(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                List.of("-cp", System.getProperty("java.class.path"), Serve.class.getName()), Map.of(), Optional.empty()),
                false, List.of(), Duration.ofSeconds(30), new McpServerSpec.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)));
        try (BuiltinSuites.Hosted mcp = McpSuites.open(own);
             ToolExecutor viaMcp = new ToolExecutor(mcp.suite(), ExecutorSettings.defaults().withConcurrency(CONCURRENT, 4 * calls))) {
            measure(viaMcp, "add", 0); // warm-up
            double one = throughput(viaMcp, 1, calls);
            double many = throughput(viaMcp, CONCURRENT, calls);
            System.out.printf("ToolCoach's stdio MCP server (arithmetic add), %d calls each: 1 caller %.0f calls/s, %d callers %.0f calls/s "
                    + "(x%.2f), every call answered%n", calls, one, CONCURRENT, many, many / one);
        }
    }

    /** Calls per second with {@code callers} calls in flight at once; throws unless every call is answered OK. */
    private static double throughput(ToolExecutor executor, int callers, int calls) {
        SplittableRandom random = new SplittableRandom(11);
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(callers);
        List<java.util.concurrent.CompletableFuture<ToolResult>> results = new java.util.ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            inFlight.acquireUninterruptibly();
            java.util.concurrent.CompletableFuture<ToolResult> result = executor.call("bench",
                    new ToolCall("add", Map.of("a", random.nextInt(1000), "b", random.nextInt(1000)))).toCompletableFuture();
            result.whenComplete((r, e) -> inFlight.release());
            results.add(result);
        }
        results.forEach(java.util.concurrent.CompletableFuture::join);
        double seconds = (System.nanoTime() - start) / 1e9;
        long failed = results.stream().map(java.util.concurrent.CompletableFuture::join).filter(r -> !r.ok()).count();
        if (failed > 0) throw new IllegalStateException(failed + " of " + calls + " calls with " + callers + " callers were not answered OK");
        return calls / seconds;
    }

    /** ToolCoach's arithmetic suite as an MCP server over this process's stdin and stdout, until stdin closes. */
    public static final class Serve {
        public static void main(String[] args) throws Exception {
            try (ToolExecutor executor = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults().withConcurrency(CONCURRENT, 1024))) {
                McpToolServer.serveStdio(List.of(executor), "bench");
            }
            System.exit(0);
        }
    }

    private static long[] measure(ToolExecutor executor, String tool, int calls) {
        SplittableRandom random = new SplittableRandom(7);
        long[] micros = new long[calls];
        for (int i = -WARMUP; i < calls; i++) {
            Map<String, Object> arguments = Map.of("a", random.nextInt(1000), "b", random.nextInt(1000));
            long start = System.nanoTime();
            ToolResult result = executor.call("bench", new ToolCall(tool, arguments)).join();
            long elapsed = (System.nanoTime() - start) / 1_000;
            if (!result.ok()) throw new IllegalStateException(tool + " failed: " + result.text());
            if (i >= 0) micros[i] = elapsed;
        }
        Arrays.sort(micros);
        return micros;
    }

    private static void report(String name, long[] sortedMicros) {
        System.out.printf("  %-30s median %6d  p90 %6d  p99 %6d%n", name, percentile(sortedMicros, 50), percentile(sortedMicros, 90),
                percentile(sortedMicros, 99));
    }

    private static long percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
