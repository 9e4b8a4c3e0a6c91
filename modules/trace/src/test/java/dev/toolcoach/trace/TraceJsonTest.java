package dev.toolcoach.trace;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceJsonTest {

    static Trace sampleTrace() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("a", 2);
        args.put("b", 3.5);
        ToolCall call = new ToolCall("add", args);
        ParsedCompletion first = new ParsedCompletion("I should add.", List.of(call),
                "[{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3.5}}]", null, null);
        ToolResult result = ToolResult.ok(call, "5.5", Map.of("value", 5.5), 3, false);
        Turn t1 = new Turn("<prompt>", "<think>I should add.</think><tool_call>...</tool_call>", first,
                "<tool_response>5.5</tool_response>", List.of(result),
                List.of(Message.user("2+3.5?"), Message.assistant("...")), 4, 9);
        ParsedCompletion second = new ParsedCompletion("Done.", List.of(), null, "5.5", null);
        Turn t2 = new Turn("<prompt2>", "<think>Done.</think><answer>5.5</answer>", second, null, List.of(),
                List.of(), 9, 12);
        TokenRecord tokens = new TokenRecord(4,
                new int[]{1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22},
                new int[]{0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1},
                new float[]{0, 0, 0, 0, -0.5f, -0.25f, -1f, 0, 0, -0.1f, -0.2f, -0.3f},
                new int[]{-1, -1, -1, -1, 3, 3, 3, -1, -1, 4, 4, 4});
        return new Trace("r-1", "g-1", "q-1", "2+3.5?", List.of(t1, t2), tokens, "5.5", Termination.ANSWER,
                null, 1000L, 42L, Map.of("gold_answer", "5.5"));
    }

    @Test
    void roundTripKeepsEveryField() throws Exception {
        Trace trace = sampleTrace();
        Trace back = TraceJson.fromJson(TraceJson.toJson(trace));
        assertEquals(trace, back);
        assertEquals(Integer.class, back.turns().get(0).parsedCompletion().toolCalls().get(0).arguments().get("a").getClass());
    }

    @Test
    void offeredToolsRoundTripAndOldTracesOfferedNoneRecorded() throws Exception {
        Trace plain = sampleTrace();
        Trace offered = new Trace(plain.rolloutId(), plain.groupId(), plain.queryId(), plain.query(), plain.turns(), plain.tokens(),
                plain.finalAnswer(), plain.termination(), plain.error(), plain.startedAtMillis(), plain.durationMillis(),
                plain.metadata(), List.of("add", "multiply"));
        String json = TraceJson.toJson(offered);
        assertEquals("[\"add\",\"multiply\"]", TraceJson.mapper().readTree(json).get("offered_tools").toString());
        assertEquals(offered, TraceJson.fromJson(json));

        // a trace written before offered tools were recorded has no such field and reads as none recorded
        String old = TraceJson.toJson(plain);
        assertFalse(TraceJson.mapper().readTree(old).has("offered_tools"), old);
        assertEquals(List.of(), TraceJson.fromJson(old).offeredTools());
    }

    @Test
    void usesToolBrainFieldNames() throws Exception {
        JsonNode node = TraceJson.mapper().readTree(TraceJson.toJson(sampleTrace()));
        JsonNode turn = node.get("turns").get(0);
        for (String field : List.of("prompt_for_model", "model_completion", "parsed_completion", "tool_output",
                "action_output", "formatted_conversation")) {
            assertTrue(turn.has(field), field);
        }
        JsonNode parsed = turn.get("parsed_completion");
        for (String field : List.of("thought", "tool_calls", "tool_code", "final_answer", "parse_error")) {
            assertTrue(parsed.has(field), field);
        }
        for (String field : List.of("token_ids", "loss_mask", "behavior_logprobs", "policy_versions")) {
            assertTrue(node.get("tokens").has(field), field);
        }
        assertFalse(node.has("reward") || node.has("job_step"), "reward and step live in the metadata only: " + node);
    }

    @Test
    void theRewardAndStepARunRecordedAreReadFromTheMetadata() {
        Trace plain = sampleTrace();
        assertTrue(plain.reward().isEmpty() && plain.jobStep().isEmpty());
        Trace scored = new Trace("r", "g", "q", "?", List.of(), null, null, Termination.ANSWER, null, 0, 0,
                Map.of(Trace.REWARD_KEY, 0.25, Trace.STEP_KEY, 7L));
        assertEquals(0.25, scored.reward().getAsDouble());
        assertEquals(7L, scored.jobStep().getAsLong());
    }

    @Test
    void badLinesAreSkippedWithTheirNumbers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("traces.jsonl");
        TraceJson.append(file, List.of(sampleTrace()));
        Files.writeString(file, "{not json\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        TraceJson.append(file, List.of(sampleTrace()));
        JsonLines.Read<Trace> read = TraceJson.read(file);
        assertEquals(2, read.items().size());
        assertEquals(1, read.skipped().size());
        assertEquals(2, read.skipped().get(0).lineNumber());
    }

    /** Two contexts: the template rewrote turn 1, so turn 2 was generated after a new prompt (tokens 7..9). */
    static Trace twoContexts() {
        ParsedCompletion call = new ParsedCompletion("t", List.of(new ToolCall("add", Map.of("a", 2))), null, null, null);
        ParsedCompletion answer = new ParsedCompletion(null, List.of(), null, "2", null);
        Turn t1 = new Turn("<prompt1>", "<think>t</think><tool_call>..</tool_call>", call, "2", List.of(), List.of(), 4, 7);
        Turn t2 = new Turn("<prompt2>", "2", answer, null, List.of(), List.of(), 10, 12);
        TokenRecord tokens = new TokenRecord(4,
                new int[]{1, 2, 3, 4, 10, 11, 12, 1, 2, 5, 20, 21},
                new int[]{0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1},
                new float[]{0, 0, 0, 0, -0.5f, -0.25f, -1f, 0, 0, 0, -0.2f, -0.3f},
                new int[]{-1, -1, -1, -1, 3, 3, 3, -1, -1, -1, 3, 3}, new int[]{7});
        return new Trace("r-2", "g-1", "q-1", "1+1?", List.of(t1, t2), tokens, "2", Termination.ANSWER,
                null, 1000L, 42L, Map.of());
    }

    @Test
    void contextStartsRoundTripAndOldTracesAreOneContext() throws Exception {
        Trace trace = twoContexts();
        String json = TraceJson.toJson(trace);
        assertEquals(trace, TraceJson.fromJson(json));
        assertArrayEquals(new int[]{1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2}, trace.tokens().contextNumbers());
        assertTrue(TraceWarnings.of(trace).stream().noneMatch(w -> w.contains("token")),
                "a new context's prompt between two turns is no gap: " + TraceWarnings.of(trace));
        Trace gap = new Trace("r-3", "g-1", "q-1", "1+1?", trace.turns(), new TokenRecord(4, trace.tokens().tokenIds(),
                trace.tokens().lossMask(), trace.tokens().behaviorLogprobs(), trace.tokens().policyVersions()),
                "2", Termination.ANSWER, null, 1000L, 42L, Map.of());
        assertTrue(TraceWarnings.of(gap).stream().anyMatch(w -> w.contains("does not continue")), "without the context start it is a gap");
        assertTrue(new TracePrinter(200).format(trace).contains("in 2 contexts"), new TracePrinter(200).format(trace));

        JsonNode single = TraceJson.mapper().readTree(TraceJson.toJson(sampleTrace())).get("tokens");
        assertFalse(single.has("context_starts"), "a one-context record is written as before: " + single);
        Trace old = TraceJson.fromJson(TraceJson.toJson(sampleTrace()));
        assertEquals(1, old.tokens().contextCount());
        assertEquals(0, old.tokens().contextStarts().length);
    }

    @Test
    void aContextStartsWithItsPromptInsideTheRecord() {
        int[] ids = {1, 2, 3, 4};
        int[] mask = {0, 1, 0, 1};
        assertThrows(IllegalArgumentException.class,
                () -> new TokenRecord(1, ids, mask, new float[4], new int[4], new int[]{1}), "a generated token cannot start a context");
        assertThrows(IllegalArgumentException.class,
                () -> new TokenRecord(1, ids, mask, new float[4], new int[4], new int[]{4}), "outside the record");
        assertThrows(IllegalArgumentException.class,
                () -> new TokenRecord(3, ids, new int[]{0, 0, 0, 1}, new float[4], new int[4], new int[]{2}), "inside the first prompt");
        assertEquals(2, new TokenRecord(1, ids, mask, new float[4], new int[4], new int[]{2}).contextCount());
    }

    @Test
    void tokenRecordRejectsInconsistentArrays() {
        assertThrows(IllegalArgumentException.class,
                () -> new TokenRecord(0, new int[]{1, 2}, new int[]{1}, new float[2], new int[2]));
        assertThrows(IllegalArgumentException.class,
                () -> new TokenRecord(0, new int[]{1}, new int[]{2}, new float[1], new int[1]));
    }

    @Test
    void messagesCarryToolCallsOnlyWhenTheyHaveThem() throws Exception {
        Message call = Message.assistantCalls("", List.of(new ToolCall("add", Map.of("a", 2))));
        Message result = Message.toolResult("add", "5");
        String json = TraceJson.mapper().writeValueAsString(List.of(Message.user("hi"), call, result));
        assertEquals("[{\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"name\":\"add\",\"arguments\":{\"a\":2}}]},"
                + "{\"role\":\"tool\",\"content\":\"5\",\"name\":\"add\"}]", json);
        Message[] back = TraceJson.mapper().readValue(json, Message[].class);
        assertEquals(List.of(Message.user("hi"), call, result), List.of(back));
    }
}
