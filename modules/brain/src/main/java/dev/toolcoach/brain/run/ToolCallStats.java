package dev.toolcoach.brain.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.trace.ToolResult;

/**
 * One tool's calls over some traces (a step's, a run's).
 *
 * @param calls         results the tool returned (every status)
 * @param failed        results whose status is not OK (error, timeout, invalid arguments, unknown tool, unavailable)
 * @param latencyMillis the calls' wall time, summed
 * @param cpuMillis     the CPU time the tools' threads spent on them, summed (absent from runs recorded before it: 0)
 */
public record ToolCallStats(long calls, long failed, @JsonProperty("latency_millis") long latencyMillis,
                            @JsonProperty("cpu_millis") long cpuMillis) {

    public static final ToolCallStats NONE = new ToolCallStats(0, 0, 0, 0);

    public static ToolCallStats of(ToolResult result) {
        return new ToolCallStats(1, result.ok() ? 0 : 1, result.latencyMillis(), result.cpuMillis());
    }

    public ToolCallStats plus(ToolCallStats other) {
        return new ToolCallStats(calls + other.calls, failed + other.failed, latencyMillis + other.latencyMillis,
                cpuMillis + other.cpuMillis);
    }

    /** Mean wall time of a call, 0 without calls. */
    @JsonProperty("mean_latency_millis")
    public double meanLatencyMillis() {
        return calls == 0 ? 0 : latencyMillis / (double) calls;
    }

    /** Mean CPU time of a call, 0 without calls. */
    @JsonProperty("mean_cpu_millis")
    public double meanCpuMillis() {
        return calls == 0 ? 0 : cpuMillis / (double) calls;
    }
}
