package dev.toolcoach.trace.tooluse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.Turn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolUseTest {

    private static Turn turn(ToolResult... results) {
        List<ToolCall> calls = java.util.Arrays.stream(results).map(ToolResult::call).toList();
        return new Turn("p", "c", new ParsedCompletion(null, calls, null, null, null), "obs", List.of(results),
                List.of(), 0, 0);
    }

    /** price(AAPL) times out, price(MSFT) is a retry, price(MSFT) again is a repeat and a retry-free success, then convert fails. */
    static Trace trace(Map<String, Object> metadata) {
        ToolCall aapl = new ToolCall("get_price", Map.of("ticker", "AAPL"));
        ToolCall msft = new ToolCall("get_price", Map.of("ticker", "MSFT"));
        ToolCall convert = new ToolCall("convert", Map.of("amount", 3));
        Turn t0 = turn(ToolResult.failed(aapl, ToolResult.Status.TIMEOUT, "timed out", 500));
        Turn t1 = turn(ToolResult.ok(msft, "42", 42, 7, false));
        Turn t2 = turn(ToolResult.ok(msft, "42", 42, 5, false),
                ToolResult.failed(convert, ToolResult.Status.INVALID_ARGUMENTS, "missing currency", 1));
        Turn answer = new Turn("p", "a", new ParsedCompletion(null, List.of(), null, "42", null), null, List.of(),
                List.of(), 0, 0);
        return new Trace("r-7", "g-1", "q-1", "What is the price of MSFT on 2024-01-02?", List.of(t0, t1, t2, answer),
                null, "42", Termination.ANSWER, null, 0, 10, metadata);
    }

    @Test
    void oneRecordPerCallWithPositionOutcomeRetryAndRepeat() {
        List<ToolUseRecord> records = ToolUse.records(trace(Map.of("job_step", 3, "reward", 0.5)), "run-a", "finance");
        assertEquals(4, records.size());
        ToolUseRecord first = records.get(0);
        assertEquals("run-a", first.run());
        assertEquals("r-7", first.traceId());
        assertEquals(3L, first.step());
        assertEquals(0.5, first.episodeReward());
        assertEquals("task:finance", first.context());
        assertEquals(ToolUseRecord.Outcome.TIMEOUT, first.outcome());
        assertEquals(500, first.latencyMillis());
        assertEquals(List.of(1, 2, 3, 4), records.stream().map(ToolUseRecord::position).toList());
        assertTrue(records.stream().allMatch(r -> r.calls() == 4));
        assertEquals(List.of(0, 1, 2, 2), records.stream().map(ToolUseRecord::turn).toList());
        assertEquals(List.of(false, true, false, false), records.stream().map(ToolUseRecord::retry).toList());
        assertEquals(List.of(false, false, true, false), records.stream().map(ToolUseRecord::repeat).toList());
        assertEquals(List.of(ToolUseRecord.Outcome.TIMEOUT, ToolUseRecord.Outcome.SUCCESS,
                ToolUseRecord.Outcome.SUCCESS, ToolUseRecord.Outcome.INVALID_ARGUMENTS),
                records.stream().map(ToolUseRecord::outcome).toList());
        assertEquals(Map.of("amount", 3), records.get(3).arguments());
    }

    @Test
    void contextComesFromTheGivenTaskElseTheQueryHash() {
        assertEquals("task:email", ToolUse.records(trace(Map.of()), null, "email").get(0).context());
        ToolUseRecord hashed = ToolUse.records(trace(Map.of()), null, null).get(0);
        assertEquals(ContextKey.ofQuery("What is the price of MSFT on 2024-01-02?"), hashed.context());
        assertNull(hashed.run());
        assertNull(hashed.step());
        assertNull(hashed.episodeReward());
    }

    @Test
    void queryHashIgnoresNumbersOrderCaseAndPunctuation() {
        assertEquals("msft price the what", ContextKey.features("What is the price of MSFT on 2024-01-02?"));
        assertEquals(ContextKey.ofQuery("What is the price of MSFT on 2024-01-02?"),
                ContextKey.ofQuery("the PRICE of msft, what is it... on 1999-12-31"));
        assertTrue(ContextKey.ofQuery("What is the price of MSFT?").matches("query:[0-9a-f]{8}"));
        assertFalse(ContextKey.ofQuery("price of MSFT").equals(ContextKey.ofQuery("price of AAPL")));
        assertEquals("query:none", ContextKey.ofQuery("1 + 2 = ?"));
        assertThrows(IllegalArgumentException.class, () -> ContextKey.task(" "));
    }

    @Test
    void jsonLinesRoundTripWithSnakeCaseFields(@TempDir Path dir) throws Exception {
        List<ToolUseRecord> records = ToolUse.records(trace(Map.of("job_step", 3, "reward", 1.0)), "run-a", "finance");
        Path file = dir.resolve(ToolUse.FILE);
        ToolUse.append(file, records.subList(0, 2));
        ToolUse.append(file, records.subList(2, 4));
        JsonLines.Read<ToolUseRecord> read = ToolUse.read(file);
        assertEquals(records, read.items());
        assertTrue(read.skipped().isEmpty());
        assertEquals(Integer.class, read.items().get(3).arguments().get("amount").getClass());
        JsonNode line = TraceJson.mapper().readTree(Files.readAllLines(file).get(0));
        for (String field : List.of("run", "trace_id", "step", "turn", "context", "tool", "arguments", "outcome",
                "latency_millis", "position", "calls", "retry", "repeat", "episode_reward")) {
            assertTrue(line.has(field), field);
        }
        assertEquals(14, line.size());
        ToolUse.write(file, records.subList(0, 1));
        assertEquals(1, ToolUse.read(file).items().size());
    }

    @Test
    void badLinesAreCountedSkipsWithTheirNumbers(@TempDir Path dir) throws Exception {
        List<ToolUseRecord> records = ToolUse.records(trace(Map.of()), null, "finance");
        Path file = dir.resolve(ToolUse.FILE);
        ToolUse.write(file, records.subList(0, 1));
        String good = ToolUse.toJson(records.get(1));
        Files.writeString(file, String.join("\n", "{not json",
                good.replace("\"TIMEOUT\"", "\"EXPLODED\"").replace("\"SUCCESS\"", "\"EXPLODED\""),
                good.replace("\"position\":2", "\"position\":9"),
                good.replace("\"tool\":\"get_price\",", ""),
                good) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        JsonLines.Read<ToolUseRecord> read = ToolUse.read(file);
        assertEquals(List.of(records.get(0), records.get(1)), read.items());
        assertEquals(List.of(2, 3, 4, 5), read.skipped().stream().map(JsonLines.SkippedLine::lineNumber).toList());
        assertTrue(read.skipped().get(2).reason().contains("position"), read.skipped().get(2).reason());
        assertTrue(read.skipped().get(3).reason().contains("tool"), read.skipped().get(3).reason());
    }

    @Test
    void aTraceWithoutCallsHasNoRecords() {
        Trace none = new Trace("r", "g", "q", "hi", List.of(), null, "hi", Termination.ANSWER, null, 0, 0, Map.of());
        assertTrue(ToolUse.records(none, "run", null).isEmpty());
    }
}
