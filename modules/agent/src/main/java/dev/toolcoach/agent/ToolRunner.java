package dev.toolcoach.agent;

import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs one turn's calls through the tool environment, all at once, and turns every way a call can
 * go wrong (an exception, no answer in time, an empty result) into an error result the model sees.
 * The returned stage never fails.
 */
final class ToolRunner {

    private final ToolEnvironment tools;
    private final Duration timeout;
    private final OutputCap cap;

    ToolRunner(ToolEnvironment tools, Duration timeout, OutputCap cap) {
        this.tools = tools;
        this.timeout = timeout;
        this.cap = cap;
    }

    CompletionStage<List<ToolResult>> run(String trajectoryId, List<ToolCall> calls) {
        long start = System.nanoTime();
        List<CompletionStage<ToolResult>> stages;
        try {
            stages = tools.execute(trajectoryId, calls);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(calls.stream()
                    .map(c -> ToolResult.failed(c, ToolResult.Status.ERROR, "the tool environment failed: " + describe(e),
                            millisSince(start)))
                    .toList());
        }
        if (stages.size() != calls.size()) {
            return CompletableFuture.failedFuture(new IllegalStateException("the tool environment answered "
                    + stages.size() + " results for " + calls.size() + " calls"));
        }
        List<CompletableFuture<ToolResult>> guarded = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            guarded.add(guard(calls.get(i), stages.get(i), start));
        }
        return CompletableFuture.allOf(guarded.toArray(CompletableFuture[]::new))
                .thenApply(done -> guarded.stream().map(CompletableFuture::join).map(cap::apply).toList());
    }

    private CompletableFuture<ToolResult> guard(ToolCall call, CompletionStage<ToolResult> stage, long start) {
        CompletableFuture<ToolResult> result = new CompletableFuture<>();
        stage.whenComplete((r, e) -> {
            if (e != null) {
                result.complete(ToolResult.failed(call, ToolResult.Status.ERROR, "tool '" + call.name() + "' failed: "
                        + describe(e), millisSince(start)));
            } else if (r == null) {
                result.complete(ToolResult.failed(call, ToolResult.Status.ERROR, "tool '" + call.name()
                        + "' returned no result", millisSince(start)));
            } else {
                result.complete(r);
            }
        });
        result.completeOnTimeout(ToolResult.failed(call, ToolResult.Status.TIMEOUT, "tool '" + call.name()
                + "' gave no result within " + timeout.toMillis() + " ms", timeout.toMillis()),
                timeout.toMillis(), TimeUnit.MILLISECONDS);
        return result;
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
