package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CodeActCodecTest {

    private static final List<ToolSpec> TOOLS = List.of(ToolSpec.of("get_price", "Closing price of a ticker",
            "{\"type\": \"object\", \"properties\": {\"day\": {\"type\": \"integer\"}, \"ticker\": {\"type\": \"string\"}},"
                    + " \"required\": [\"ticker\"]}"));
    private static final ActionParser PARSER = new ActionParser(ActionFormat.CODE_ACT, TOOLS);

    @Test
    void aProgramIsOneCallOfThePythonTool() {
        ParsedCompletion parsed = PARSER.parse("<think>look it up</think>\n<code>\np = get_price(\"ACME\")\nprint(p)\n</code>");
        assertTrue(parsed.valid(), String.valueOf(parsed.parseError()));
        assertEquals("look it up", parsed.thought());
        assertEquals(List.of(CodeActCodec.programCall("p = get_price(\"ACME\")\nprint(p)")), parsed.toolCalls());
        assertEquals("p = get_price(\"ACME\")\nprint(p)", parsed.toolCode());
    }

    @Test
    void aMarkdownFenceInsideTheBlockIsNotPartOfTheProgram() {
        ParsedCompletion parsed = PARSER.parse("<code>```python\nx = 1\nx\n```</code>");
        assertEquals("x = 1\nx", parsed.toolCode());
    }

    @Test
    void answersAndMistakesReadAsTheTaggedFormatReadsThem() {
        assertEquals("42", PARSER.parse("<think>done</think><answer>42</answer>").finalAnswer());
        assertEquals(ParseError.Kind.CALL_AND_ANSWER, PARSER.parse("<code>1</code><answer>1</answer>").parseError().kind());
        assertEquals(ParseError.Kind.NO_ACTION, PARSER.parse("just text").parseError().kind());
        assertEquals(ParseError.Kind.NO_ACTION, PARSER.parse("<code>  </code>").parseError().kind());
        assertEquals(ParseError.Kind.UNCLOSED_TAG, PARSER.parse("<code>print(1)").parseError().kind());
        assertEquals(ParseError.Kind.TEXT_AFTER_ANSWER, PARSER.parse("<answer>1</answer> more").parseError().kind());
    }

    @Test
    void writtenCallsBecomeAProgramPrintingEachResult() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("ticker", "AC\"ME");
        args.put("day", 3);
        args.put("flags", List.of(true, false));
        args.put("note", null);
        String text = CodeActCodec.INSTANCE.writeCalls(List.of(new ToolCall("get_price", args), new ToolCall("x", Map.of())));
        assertEquals("<code>\nprint(get_price(ticker=\"AC\\\"ME\", day=3, flags=[True, False], note=None))\nprint(x())\n</code>", text);
        ToolCall program = CodeActCodec.programCall("print(1)");
        assertEquals("<code>\nprint(1)\n</code>", CodeActCodec.INSTANCE.writeCalls(List.of(program)));
        assertEquals(List.of(program), PARSER.parse(CodeActCodec.INSTANCE.writeCalls(List.of(program))).toolCalls());

        // the email suite's search takes "from", a Python reserved word: "from=..." would be a syntax error
        Map<String, Object> search = new LinkedHashMap<>();
        search.put("keywords", "gas");
        search.put("from", "a@enron.com");
        search.put("date-to", "2001-01-02");
        assertEquals("<code>\nprint(search_emails(keywords=\"gas\", **{\"from\": \"a@enron.com\", \"date-to\": \"2001-01-02\"}))\n</code>",
                CodeActCodec.INSTANCE.writeCalls(List.of(new ToolCall("search_emails", search))));
    }

    @Test
    void lenientReadingFindsEachProgramAndSaysWhyThereIsNone() {
        ToolCallCodec.CallReading reading = CodeActCodec.INSTANCE.readCalls("<think>t</think><code>a()</code><code>b()</code>");
        assertEquals(2, reading.blocks().size());
        assertTrue(reading.thinkingFirst());
        assertNull(reading.error());
        ToolCallCodec.CallReading cut = CodeActCodec.INSTANCE.readCalls("<code>a(");
        assertTrue(cut.cutOff());
        assertFalse(CodeActCodec.INSTANCE.readCalls("nothing").cutOff());
    }

    @Test
    void theSystemPromptOffersTheToolsAsPythonFunctions() {
        String prompt = ActionFormat.CODE_ACT.systemPrompt(TOOLS);
        assertTrue(prompt.contains("def get_price(ticker: str, day: int = None): \"\"\"Closing price of a ticker\"\"\""), prompt);
        assertEquals(ActionFormat.CODE_ACT, ActionFormat.named("code-act"));
        // a small model's whole context is a few hundred tokens: no runs of source indentation in the prompt
        assertFalse(prompt.contains("  "), prompt);
    }
}
