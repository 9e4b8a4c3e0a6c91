package dev.toolcoach.bench.tile;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ADAPT's task variant: tools of equal purpose that differ in reliability. Every tool of the suite stays under its own
 * name but fails (UNAVAILABLE, without running) with probability {@code failure}; with {@code backups} each also gets a
 * copy {@code <name>_v2} that always runs. Whether a call fails is a pure function of the seed, the trajectory, the
 * tool and how many calls of it the trajectory made before, so two conditions over the same queries meet the same
 * failures whatever order their calls run in.
 */
final class UnreliableTools implements ToolEnvironment {
    static final String BACKUP = "_v2";

    private final ToolEnvironment tools;
    private final double failure;
    private final long seed;
    private final boolean backups;
    private final Map<String, AtomicInteger> ordinals = new ConcurrentHashMap<>();

    UnreliableTools(ToolEnvironment tools, double failure, long seed, boolean backups) {
        this.tools = tools;
        this.failure = failure;
        this.seed = seed;
        this.backups = backups;
    }

    /** The groups of equivalent tools: each tool with its backup. */
    List<List<String>> groups() {
        return tools.specs().stream().map(s -> List.of(s.name(), s.name() + BACKUP)).toList();
    }

    @Override
    public List<ToolSpec> specs() {
        List<ToolSpec> out = new ArrayList<>(tools.specs());
        if (backups) tools.specs().forEach(s -> out.add(new ToolSpec(s.name() + BACKUP, s.description(), s.parameters())));
        return out;
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        List<CompletionStage<ToolResult>> out = new ArrayList<>();
        for (ToolCall call : calls) {
            boolean backup = backups && call.name().endsWith(BACKUP);
            String tool = backup ? call.name().substring(0, call.name().length() - BACKUP.length()) : call.name();
            int ordinal = ordinals.computeIfAbsent(trajectoryId + '\u0000' + tool, k -> new AtomicInteger()).getAndIncrement();
            if (!backup && fails(trajectoryId, tool, ordinal)) {
                out.add(CompletableFuture.completedFuture(ToolResult.failed(call, ToolResult.Status.UNAVAILABLE,
                        "tool '" + call.name() + "' is unavailable, try again later", 0)));
                continue;
            }
            CompletionStage<ToolResult> result = tools.execute(trajectoryId, List.of(new ToolCall(tool, call.arguments()))).get(0);
            out.add(backup ? result.thenApply(r -> new ToolResult(call, r.status(), r.text(), r.structured(), r.error(),
                    r.latencyMillis(), r.truncated(), r.cpuMillis())) : result);
        }
        return out;
    }

    private boolean fails(String trajectoryId, String tool, int ordinal) {
        long h = seed * 0x9E3779B97F4A7C15L ^ (trajectoryId + '\u0000' + tool).hashCode() * 0xC2B2AE3D27D4EB4FL ^ ordinal;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (h >>> 11) * 0x1.0p-53 < failure;
    }

    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        ordinals.keySet().removeIf(k -> k.startsWith(trajectoryId + '\u0000'));
        return tools.release(trajectoryId);
    }
}
