package dev.toolcoach.tools.codeact;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.CodeActCodec;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The tools of a code-acting agent: the program of a code action runs in the {@link PythonSandbox}, and each
 * function it calls goes to the real tools under the same trajectory (so per-trajectory state, deadlines, output
 * caps and metrics are the tools' own, on a tool node or in process). The model is offered the real tools.
 */
public final class CodeActEnvironment implements ToolEnvironment {

    private static volatile PythonSandbox shared;

    private final ToolEnvironment tools;
    private final PythonSandbox sandbox;

    public CodeActEnvironment(ToolEnvironment tools, PythonSandbox sandbox) {
        this.tools = tools;
        this.sandbox = sandbox;
    }

    /**
     * {@code tools} as an agent acting in {@code format} needs them: wrapped for a code action (running programs in
     * this JVM's shared sandbox with default limits), as they are for any other format.
     */
    public static ToolEnvironment forFormat(ActionFormat format, ToolEnvironment tools) {
        return format == ActionFormat.CODE_ACT ? new CodeActEnvironment(tools, sharedSandbox()) : tools;
    }

    private static PythonSandbox sharedSandbox() {
        PythonSandbox sandbox = shared;
        if (sandbox == null) {
            synchronized (CodeActEnvironment.class) {
                if (shared == null) shared = PythonSandbox.withDefaults();
                sandbox = shared;
            }
        }
        return sandbox;
    }

    @Override
    public List<ToolSpec> specs() {
        return tools.specs();
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        return calls.stream().map(call -> call.name().equals(CodeActCodec.PYTHON_TOOL)
                ? runProgram(trajectoryId, call)
                : tools.execute(trajectoryId, List.of(call)).get(0)).toList();
    }

    private CompletionStage<ToolResult> runProgram(String trajectoryId, ToolCall call) {
        if (!(call.arguments().get(CodeActCodec.CODE_ARGUMENT) instanceof String code)) {
            return CompletableFuture.completedFuture(ToolResult.failed(call, ToolResult.Status.INVALID_ARGUMENTS,
                    "a code action needs its program as the string argument '" + CodeActCodec.CODE_ARGUMENT + "'", 0));
        }
        return sandbox.run(code, tools.specs(), inner -> tools.execute(trajectoryId, List.of(inner)).get(0))
                .thenApply(run -> run.toResult(call));
    }

    @Override
    public Optional<String> promptHint(String trajectoryId, List<ToolSpec> offered) {
        return tools.promptHint(trajectoryId, offered);
    }

    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        return tools.release(trajectoryId);
    }
}
