package dev.toolcoach.trace.tooluse;

import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.Turn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Extraction of {@link ToolUseRecord}s from traces, and {@code tool_use.jsonl} I/O.
 *
 * <p>One record per tool result of the trace (every executed call has exactly one result, which names its call), in
 * trajectory order. The context is {@link ContextKey#of(String, String)} of the given task, else of the trace's query.
 */
public final class ToolUse {
    /** The file name of the tool-use log in a run folder. */
    public static final String FILE = "tool_use.jsonl";

    private ToolUse() {
    }

    /**
     * The tool-use records of one trace.
     *
     * @param run  the run or job id, or null when unknown
     * @param task the task name, or null to key the context by the query
     */
    public static List<ToolUseRecord> records(Trace trace, String run, String task) {
        return records(trace, run, task, trace.reward().isPresent() ? trace.reward().getAsDouble() : null);
    }

    /** The tool-use records of one trace scored outside its metadata (an evaluation): {@code reward} may be null. */
    public static List<ToolUseRecord> records(Trace trace, String run, String task, Double reward) {
        String context = ContextKey.of(task, trace.query());
        Long step = trace.jobStep().isPresent() ? trace.jobStep().getAsLong() : null;
        int calls = trace.toolResults().size();
        List<ToolUseRecord> out = new ArrayList<>(calls);
        Set<String> seen = new HashSet<>();
        ToolResult previous = null;
        for (int turnIndex = 0; turnIndex < trace.turns().size(); turnIndex++) {
            Turn turn = trace.turns().get(turnIndex);
            for (ToolResult result : turn.actionOutput()) {
                String tool = result.call().name();
                Map<String, Object> args = result.call().arguments();
                boolean retry = previous != null && previous.call().name().equals(tool)
                        && !previous.call().arguments().equals(args);
                boolean repeat = !seen.add(tool + '\u0000' + args);
                out.add(new ToolUseRecord(run, trace.rolloutId(), step, turnIndex, context, tool, args,
                        ToolUseRecord.Outcome.of(result.status()), result.latencyMillis(), out.size() + 1, calls,
                        retry, repeat, reward));
                previous = result;
            }
        }
        return out;
    }

    /** The records of every trace, in order. */
    public static List<ToolUseRecord> records(Collection<Trace> traces, String run, String task) {
        return traces.stream().flatMap(t -> records(t, run, task).stream()).toList();
    }

    public static String toJson(ToolUseRecord record) {
        try {
            return TraceJson.mapper().writeValueAsString(record);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool-use record of trace " + record.traceId()
                    + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads one record; a record that breaks its own rules throws an IllegalArgumentException naming the field. */
    public static ToolUseRecord fromJson(String json) throws JsonProcessingException {
        try {
            return TraceJson.mapper().readValue(json, ToolUseRecord.class);
        } catch (ValueInstantiationException e) {
            // the record's own check failed: its message names the field and never quotes the line
            if (e.getCause() instanceof IllegalArgumentException || e.getCause() instanceof NullPointerException) {
                throw new IllegalArgumentException(e.getCause().getMessage(), e);
            }
            throw e;
        }
    }

    /** Appends records to a JSON Lines file (crash-safe, see {@link JsonLines#write}), creating it if needed. */
    public static void append(Path file, Collection<ToolUseRecord> records) {
        JsonLines.write(file, records, ToolUse::toJson, true, "tool-use records");
    }

    /** Writes records to a JSON Lines file, replacing it. */
    public static void write(Path file, Collection<ToolUseRecord> records) {
        JsonLines.write(file, records, ToolUse::toJson, false, "tool-use records");
    }

    /** Reads a tool-use log; bad lines are skipped and listed with their numbers. */
    public static JsonLines.Read<ToolUseRecord> read(Path file) {
        return JsonLines.read(file, "tool-use records", ToolUse::fromJson);
    }
}
