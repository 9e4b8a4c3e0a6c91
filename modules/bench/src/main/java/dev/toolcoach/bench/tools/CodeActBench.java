package dev.toolcoach.bench.tools;

import dev.toolcoach.agent.CodeActCodec;
import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.tools.codeact.PythonSandbox;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a code action costs over a plain call, in one run on the same finance suite: latency of a direct call to
 * the suite's executor, of a program making no call (the sandbox's own cost: bubblewrap, prlimit and the
 * interpreter's start), and of programs making 1 and 4 calls (each call's extra round trip over the harness).
 *
 * <p>Run: {@code java -cp benchmarks.jar dev.toolcoach.bench.tools.CodeActBench [runs]} (default 50 per case,
 * after 5 warm-up runs), on Linux with bubblewrap and /usr/bin/python3.
 */
public final class CodeActBench {

    private CodeActBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        try (ToolExecutor finance = new ToolExecutor(FinanceTools.suite(), ExecutorSettings.defaults());
             PythonSandbox sandbox = PythonSandbox.withDefaults()) {
            CodeActEnvironment code = new CodeActEnvironment(finance, sandbox);
            ToolCall direct = new ToolCall("cagr", Map.of("start_value", 100.0, "end_value", 150.0, "years", 3));
            String call = "cagr(start_value=100.0, end_value=150.0, years=3)";
            report("direct call", runs, () -> finance.execute("b", List.of(direct)).get(0));
            report("program, no call", runs, () -> code.execute("b", List.of(CodeActCodec.programCall("x = 1"))).get(0));
            report("program, 1 call", runs, () -> code.execute("b", List.of(CodeActCodec.programCall(call))).get(0));
            report("program, 4 calls", runs, () -> code.execute("b", List.of(CodeActCodec.programCall(
                    String.join("\n", call, call, call, call)))).get(0));
        }
    }

    private interface Run {
        java.util.concurrent.CompletionStage<ToolResult> start();
    }

    private static void report(String name, int runs, Run run) throws Exception {
        for (int i = 0; i < 5; i++) check(run.start().toCompletableFuture().get(60, TimeUnit.SECONDS));
        long[] micros = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            check(run.start().toCompletableFuture().get(60, TimeUnit.SECONDS));
            micros[i] = (System.nanoTime() - t0) / 1_000;
        }
        Arrays.sort(micros);
        System.out.printf("%-18s n=%d  median %8.2f ms  p90 %8.2f ms%n", name, runs, micros[runs / 2] / 1e3,
                micros[(int) (runs * 0.9)] / 1e3);
    }

    private static void check(ToolResult result) {
        if (!result.ok()) throw new IllegalStateException("the benchmark's call failed: " + result.text());
    }
}
