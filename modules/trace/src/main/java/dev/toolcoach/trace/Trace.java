package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The definitive record of one rollout: every turn as text, the exact tokens with their
 * behaviour log-probs and policy versions, and metadata.
 *
 * @param rolloutId    unique id of this rollout (duplicates are discarded by it)
 * @param groupId      the GRPO group this rollout belongs to
 * @param queryId      the dataset example the group was made from
 * @param query        the user query
 * @param turns        the turns in order
 * @param tokens       the token-level record
 * @param finalAnswer  the answer, or null if the run ended without one
 * @param termination  why the run stopped
 * @param error        what went wrong when termination is ERROR, else null
 * @param startedAtMillis  wall-clock start (epoch millis)
 * @param durationMillis   wall-clock duration
 * @param metadata     free-form extra fields (example fields such as gold answers, athlete id, ...)
 * @param offeredTools the names of the tools the model was offered in this rollout (all of its environment's, or the few
 *                     a retriever chose for the query); empty in traces written before it was recorded
 */
public record Trace(@JsonProperty("rollout_id") String rolloutId,
                    @JsonProperty("group_id") String groupId,
                    @JsonProperty("query_id") String queryId,
                    String query,
                    List<Turn> turns,
                    TokenRecord tokens,
                    @JsonProperty("final_answer") String finalAnswer,
                    Termination termination,
                    String error,
                    @JsonProperty("started_at_millis") long startedAtMillis,
                    @JsonProperty("duration_millis") long durationMillis,
                    Map<String, Object> metadata,
                    @JsonProperty("offered_tools") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> offeredTools) {

    /**
     * The metadata field of the reward the learner gave a trace (a run folder's {@code traces.jsonl}): written by
     * {@link #withReward}, read by {@link #reward()}; the name is ToolBrain's.
     */
    public static final String REWARD_KEY = "reward";
    /** The metadata field of the job step that trained on a trace: written by {@link #withJobStep}, read by {@link #jobStep()}. */
    public static final String STEP_KEY = "job_step";

    @JsonCreator
    public Trace {
        Objects.requireNonNull(rolloutId, "rolloutId");
        Objects.requireNonNull(termination, "termination");
        turns = turns == null ? List.of() : List.copyOf(turns);
        tokens = tokens == null ? TokenRecord.empty() : tokens;
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        offeredTools = offeredTools == null ? List.of() : List.copyOf(offeredTools);
    }

    /** A trace that does not record which tools were offered. */
    public Trace(String rolloutId, String groupId, String queryId, String query, List<Turn> turns, TokenRecord tokens,
                 String finalAnswer, Termination termination, String error, long startedAtMillis, long durationMillis,
                 Map<String, Object> metadata) {
        this(rolloutId, groupId, queryId, query, turns, tokens, finalAnswer, termination, error, startedAtMillis,
                durationMillis, metadata, List.of());
    }

    /** All tool calls over all turns, in order. */
    public List<ToolCall> toolCalls() {
        return turns.stream().flatMap(t -> t.parsedCompletion() == null
                ? Stream.<ToolCall>empty()
                : t.parsedCompletion().toolCalls().stream()).toList();
    }

    /** All tool results over all turns, in order. */
    public List<ToolResult> toolResults() {
        return turns.stream().flatMap(t -> t.actionOutput().stream()).toList();
    }

    /** The reward recorded in the metadata ({@value #REWARD_KEY}), if any. */
    @JsonIgnore
    public OptionalDouble reward() {
        return metadata.get(REWARD_KEY) instanceof Number n ? OptionalDouble.of(n.doubleValue()) : OptionalDouble.empty();
    }

    /** The job step recorded in the metadata ({@value #STEP_KEY}), if any. */
    @JsonIgnore
    public OptionalLong jobStep() {
        return metadata.get(STEP_KEY) instanceof Number n ? OptionalLong.of(n.longValue()) : OptionalLong.empty();
    }

    /** This trace with the reward it was given recorded in its metadata. */
    public Trace withReward(double reward) {
        return withMetadata(REWARD_KEY, reward);
    }

    /** This trace with the job step that trained on it recorded in its metadata. */
    public Trace withJobStep(long step) {
        return withMetadata(STEP_KEY, step);
    }

    private Trace withMetadata(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(metadata);
        more.put(key, value);
        return new Trace(rolloutId, groupId, queryId, query, turns, tokens, finalAnswer, termination, error, startedAtMillis,
                durationMillis, more, offeredTools);
    }
}
