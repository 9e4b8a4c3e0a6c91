package dev.toolcoach.tools.codeact;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.CodeActCodec;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.nio.file.Path;
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
    /** What the shared sandbox is made with; a node sets it from its configuration before any code action runs. */
    private static Path python = Path.of("/usr/bin/python3");
    private static SandboxLimits limits = SandboxLimits.defaults();

    private final ToolEnvironment tools;
    private final PythonSandbox sandbox;

    public CodeActEnvironment(ToolEnvironment tools, PythonSandbox sandbox) {
        this.tools = tools;
        this.sandbox = sandbox;
    }

    /**
     * {@code tools} as an agent acting in {@code format} needs them: wrapped for a code action (running programs in
     * this JVM's shared sandbox, see {@link #configure}), as they are for any other format.
     */
    public static ToolEnvironment forFormat(ActionFormat format, ToolEnvironment tools) {
        return format == ActionFormat.CODE_ACT ? new CodeActEnvironment(tools, sharedSandbox()) : tools;
    }

    /**
     * The interpreter and limits of the sandbox code actions run in from now on in this JVM (a node's
     * {@code toolcoach.code-act}); the sandbox itself is made on first use, so a node that never runs a code action
     * needs no bubblewrap. Programs already running finish in the sandbox they started in.
     */
    public static synchronized void configure(Path interpreter, SandboxLimits sandboxLimits) {
        if (interpreter.equals(python) && sandboxLimits.equals(limits)) return;
        python = interpreter;
        limits = sandboxLimits;
        shared = null; // programs already started keep their sandbox; the next one gets the new settings
    }

    private static PythonSandbox sharedSandbox() {
        PythonSandbox sandbox = shared;
        if (sandbox == null) {
            synchronized (CodeActEnvironment.class) {
                if (shared == null) shared = PythonSandbox.create(python, limits);
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
