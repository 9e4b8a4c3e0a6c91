package dev.toolcoach.trace.tooluse;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.trace.ToolResult;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One tool call as TILE observes it: where it happened, what was called, how it went and where it sits in its
 * trajectory. One line of {@code tool_use.jsonl}; made from a trace by {@link ToolUse#records}.
 *
 * @param run           the run or job the trace belongs to, or null when unknown (a loose traces file)
 * @param traceId       the trace's rollout id
 * @param step          the training step that trained on the trace, or null outside training
 * @param turn          0-based index of the turn that made the call
 * @param context       the context key (see {@link ContextKey})
 * @param tool          the tool name as the model wrote it
 * @param arguments     the call's JSON arguments
 * @param outcome       success, or the error kind the tool layer reported
 * @param latencyMillis wall-clock time of the call
 * @param position      1-based position k of this call among the trajectory's calls
 * @param calls         number n of calls in the trajectory
 * @param retry         the previous call of the trajectory was the same tool with other arguments
 * @param repeat        an earlier call of the trajectory was the same tool with the same arguments (redundant)
 * @param episodeReward the trace's task reward when it was scored, else null
 */
public record ToolUseRecord(String run,
                            @JsonProperty("trace_id") String traceId,
                            Long step,
                            int turn,
                            String context,
                            String tool,
                            Map<String, Object> arguments,
                            Outcome outcome,
                            @JsonProperty("latency_millis") long latencyMillis,
                            int position,
                            int calls,
                            boolean retry,
                            boolean repeat,
                            @JsonProperty("episode_reward") Double episodeReward) {

    /** How a call went: success, or the tool layer's error kind ({@link ToolResult.Status}). */
    public enum Outcome {
        SUCCESS, ERROR, TIMEOUT, INVALID_ARGUMENTS, UNKNOWN_TOOL, UNAVAILABLE;

        public static Outcome of(ToolResult.Status status) {
            return status == ToolResult.Status.OK ? SUCCESS : valueOf(status.name());
        }
    }

    public ToolUseRecord {
        Objects.requireNonNull(traceId, "field trace_id is missing");
        Objects.requireNonNull(context, "field context is missing");
        Objects.requireNonNull(tool, "field tool is missing");
        Objects.requireNonNull(outcome, "field outcome is missing");
        if (turn < 0) throw new IllegalArgumentException("field turn must be >= 0, was " + turn);
        if (position < 1 || position > calls) {
            throw new IllegalArgumentException("field position must be in 1.." + calls + ", was " + position);
        }
        if (latencyMillis < 0) throw new IllegalArgumentException("field latency_millis must be >= 0, was " + latencyMillis);
        arguments = arguments == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    @JsonIgnore
    public boolean success() {
        return outcome == Outcome.SUCCESS;
    }
}
