package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Objects;

/**
 * The outcome of one tool call: the text the model sees, the structured output rewards read
 * ({@code action_output}), and how it went.
 *
 * @param call          the call this answers
 * @param status        OK, or why there is no normal result
 * @param text          what goes back to the model inside {@code <tool_response>}
 * @param structured    JSON-shaped value for rewards (Map/List/String/Number/Boolean), may be null
 * @param error         the error message when status is not OK, else null
 * @param latencyMillis wall-clock time of the call
 * @param truncated     true when {@code text} was cut to the output cap
 * @param cpuMillis     CPU time the tool's thread spent on the call (0 where it was not measured: a call that never
 *                      ran, or ended by its deadline before the tool returned)
 */
public record ToolResult(ToolCall call, Status status, String text, Object structured, String error,
                         @JsonProperty("latency_millis") long latencyMillis, boolean truncated,
                         @JsonProperty("cpu_millis") long cpuMillis) {

    /** How a call ended; {@code CANCELLED}: its rollout ended first (the tool server released it), so no one reads it. */
    public enum Status { OK, ERROR, TIMEOUT, INVALID_ARGUMENTS, UNKNOWN_TOOL, UNAVAILABLE, CANCELLED }

    public ToolResult {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(status, "status");
        text = text == null ? "" : text;
    }

    public boolean ok() {
        return status == Status.OK;
    }

    public static ToolResult ok(ToolCall call, String text, Object structured, long latencyMillis, boolean truncated) {
        return new ToolResult(call, Status.OK, text, structured, null, latencyMillis, truncated, 0);
    }

    public static ToolResult failed(ToolCall call, Status status, String error, long latencyMillis) {
        return new ToolResult(call, status, "Error: " + error, null, error, latencyMillis, false, 0);
    }

    /** This result with the CPU time its tool spent, as the executor measured it. */
    public ToolResult withCpuMillis(long millis) {
        return new ToolResult(call, status, text, structured, error, latencyMillis, truncated, millis);
    }
}
