package dev.toolcoach.testkit;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * An in-process tool environment for tests: each tool is a Java function run on an executor, so
 * the calls of a turn really run at the same time.
 */
public final class FunctionTools implements ToolEnvironment {

    /** A tool body: arguments in, text out, or a stage for tools that answer later (or never). */
    public interface Body extends Function<Map<String, Object>, CompletionStage<String>> {
    }

    private final Map<String, ToolSpec> specs = new LinkedHashMap<>();
    private final Map<String, Body> bodies = new LinkedHashMap<>();
    private final ExecutorService executor;

    public FunctionTools(ExecutorService executor) {
        this.executor = executor;
    }

    public FunctionTools add(ToolSpec spec, Function<Map<String, Object>, String> body) {
        return addAsync(spec, args -> CompletableFuture.supplyAsync(() -> body.apply(args), executor));
    }

    public FunctionTools addAsync(ToolSpec spec, Body body) {
        specs.put(spec.name(), spec);
        bodies.put(spec.name(), body);
        return this;
    }

    @Override
    public List<ToolSpec> specs() {
        return List.copyOf(specs.values());
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        return calls.stream().map(this::start).toList();
    }

    private CompletionStage<ToolResult> start(ToolCall call) {
        long t0 = System.nanoTime();
        return bodies.get(call.name()).apply(call.arguments())
                .thenApply(text -> ToolResult.ok(call, text, Map.of("text", text), (System.nanoTime() - t0) / 1_000_000, false));
    }
}
