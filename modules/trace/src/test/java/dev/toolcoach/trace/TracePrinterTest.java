package dev.toolcoach.trace;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TracePrinterTest {

    @Test
    void showsWhatTheModelSawSaidAndGotBackPerTurn() {
        String text = TracePrinter.print(TraceJsonTest.sampleTrace());
        assertTrue(text.startsWith("Trace r-1  group g-1  query q-1\nQuery: 2+3.5?\n"
                + "Ended: ANSWER after 2 turn(s) in 42 ms with answer: 5.5\n"), text);
        assertTrue(text.contains("── Turn 1  (tokens 4..9)\nModel saw (8 chars):\n  <prompt>\n"), text);
        assertTrue(text.contains("Model said:\n  <think>I should add.</think><tool_call>...</tool_call>\n"), text);
        assertTrue(text.contains("Parsed:\n  thought: I should add.\n  call add {\"a\":2,\"b\":3.5}\n"), text);
        assertTrue(text.contains("Tool results:\n  add → OK in 3 ms: 5.5\n"), text);
        assertTrue(text.contains("Observation:\n  <tool_response>5.5</tool_response>\n"), text);
        assertTrue(text.contains("  answer: 5.5\n"), text);
        assertTrue(text.contains("Tokens: 12 = 4 prompt + 6 generated (loss mask 1) + 2 observation; "
                + "policy versions 3..4; mean behaviour log-prob -0.392"), text);
        assertTrue(text.endsWith("Warnings: none\n"), text);
        assertEquals(List.of(), TraceWarnings.of(TraceJsonTest.sampleTrace()));
    }

    @Test
    void laterTurnsShowOnlyWhatIsNewSinceTheLastReply() {
        ParsedCompletion answer = new ParsedCompletion(null, List.of(), null, "x", null);
        Turn first = new Turn("P1", "C1", ParsedCompletion.error(null, null, new ParseError(ParseError.Kind.NO_ACTION,
                "nothing")), "OBS", List.of(), List.of(), 1, 3);
        Turn second = new Turn("P1C1 OBS ", "<answer>x</answer>", answer, null, List.of(), List.of(), 3, 4);
        Trace trace = new Trace("r", "g", "q", "?", List.of(first, second),
                new TokenRecord(1, new int[]{1, 2, 3, 4}, new int[]{0, 1, 0, 1}, new float[]{0, -1, 0, -1},
                        new int[]{-1, 0, -1, 0}), "x", Termination.ANSWER, null, 0, 1, Map.of());
        String text = TracePrinter.print(trace);
        assertTrue(text.contains("── Turn 2  (tokens 3..4)\nModel saw (new since its last reply):\n   OBS \n"), text);
    }

    @Test
    void warnsAboutParseErrorsMissingOutputsFailuresTruncationAndNoAnswer() {
        ToolCall search = new ToolCall("search", Map.of("q", "gas"));
        ToolCall read = new ToolCall("read", Map.of("id", 7));
        Turn broken = new Turn("P", "<tool_call>[{\"name\":\"search\"</tool_call>",
                ParsedCompletion.error(null, "[{\"name\":\"search\"", new ParseError(ParseError.Kind.MALFORMED_JSON,
                        "not valid JSON")), "error", List.of(), List.of(), 2, 4);
        Turn unanswered = new Turn("P2", "c", new ParsedCompletion(null, List.of(search), "...", null, null), null,
                List.of(), List.of(), 4, 5);
        Turn failing = new Turn("P3", "c", new ParsedCompletion(null, List.of(search, read), "...", null, null), "o",
                List.of(ToolResult.failed(search, ToolResult.Status.TIMEOUT, "no result within 200 ms", 200),
                        new ToolResult(read, ToolResult.Status.OK, "abc", null, null, 1, true, 0)), List.of(), 5, 6);
        Trace trace = new Trace("r", "g", "q", "?", List.of(broken, unanswered, failing),
                new TokenRecord(2, new int[]{1, 2, 3, 4, 5, 6, 7}, new int[]{0, 0, 1, 0, 1, 1, 0},
                        new float[]{0, 0, -1, 0, -1, -1, 0}, new int[]{-1, -1, 2, -1, 2, 2, -1}),
                null, Termination.MAX_TURNS, null, 0, 5, Map.of());
        assertEquals(List.of(
                "turn 1: parse error MALFORMED_JSON: not valid JSON",
                "turn 2: 1 tool call(s) but no tool output",
                "turn 3: tool 'search' TIMEOUT: no result within 200 ms",
                "turn 3: output of tool 'read' was truncated",
                "the turns cover tokens up to 6 of 7",
                "no final answer: the run ended with MAX_TURNS"), TraceWarnings.of(trace));
        String text = TracePrinter.print(trace);
        assertTrue(text.contains("  PARSE ERROR MALFORMED_JSON: not valid JSON\n"), text);
        assertTrue(text.contains("  read → OK in 1 ms (truncated): abc\n"), text);
        assertTrue(text.contains("Warnings: 6\n  - turn 1: parse error"), text);
    }

    @Test
    void cutsLongTextsInTheMiddle() {
        Turn turn = new Turn("p".repeat(500), "a".repeat(50) + "b".repeat(400) + "c".repeat(50),
                new ParsedCompletion(null, List.of(), null, "x", null), null, List.of(), List.of(), 0, 0);
        Trace trace = new Trace("r", "g", "q", "?", List.of(turn), TokenRecord.empty(), "x", Termination.ANSWER,
                null, 0, 0, Map.of());
        String text = new TracePrinter(100).format(trace);
        assertTrue(text.contains("  " + "a".repeat(50) + " … [400 chars] … " + "c".repeat(50) + "\n"), text);
        assertFalse(text.contains("bb"), "the middle is gone");
        assertThrows(IllegalArgumentException.class, () -> new TracePrinter(5));
    }
}
