package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError.Kind;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActionParserTest {

    static final List<ToolSpec> TOOLS = List.of(
            ToolSpec.of("add", "Adds two numbers.", """
                    {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"""),
            ToolSpec.of("search_emails", "Searches the mailbox.", """
                    {"type":"object","properties":{
                       "keywords":{"type":"array","items":{"type":"string"}},
                       "limit":{"type":"integer"},
                       "sender":{"type":["string","null"]}},
                     "required":["keywords"]}"""),
            ToolSpec.of("now", "The current time.", "{}"));

    private final ActionParser n1 = new ActionParser(ActionFormat.TOOL_N1, TOOLS);
    private final ActionParser hermes = new ActionParser(ActionFormat.HERMES, TOOLS);

    @Test
    void readsToolN1CallList() {
        ParsedCompletion p = n1.parse("<think>Add them, then search.</think>\n<tool_call>[{\"name\": \"add\", "
                + "\"arguments\": {\"a\": 2, \"b\": 3.5}}, {\"name\": \"search_emails\", \"arguments\": "
                + "{\"keywords\": [\"gas\", \"price\"], \"limit\": 5, \"sender\": null}}]</tool_call>");
        assertTrue(p.valid(), String.valueOf(p.parseError()));
        assertEquals("Add them, then search.", p.thought());
        assertEquals(2, p.toolCalls().size());
        ToolCall add = p.toolCalls().get(0);
        assertEquals("add", add.name());
        assertEquals(Integer.class, add.arguments().get("a").getClass(), "an int literal stays an int");
        assertEquals(3.5, add.arguments().get("b"));
        assertEquals(List.of("gas", "price"), p.toolCalls().get(1).arguments().get("keywords"));
        assertTrue(p.toolCode().startsWith("[{\"name\": \"add\""));
        assertNull(p.finalAnswer());
    }

    @Test
    void readsHermesOneCallPerTag() {
        ParsedCompletion p = hermes.parse("I'll call two tools.\n<tool_call>\n{\"name\": \"add\", \"arguments\": "
                + "{\"a\": 1, \"b\": 2}}\n</tool_call>\n<tool_call>\n{\"name\": \"now\"}\n</tool_call>");
        assertTrue(p.valid(), String.valueOf(p.parseError()));
        assertEquals(List.of(new ToolCall("add", Map.of("a", 1, "b", 2)), new ToolCall("now", Map.of())),
                p.toolCalls());
    }

    @Test
    void readsAnswer() {
        ParsedCompletion p = n1.parse("<think>It is 5.</think><answer> 5 </answer>\n");
        assertTrue(p.valid());
        assertEquals("5", p.finalAnswer());
        assertEquals("It is 5.", p.thought());
        assertTrue(p.toolCalls().isEmpty());
    }

    @Test
    void hermesTakesPlainTextAsTheAnswerButToolN1DoesNot() {
        assertEquals("The total is 5.", hermes.parse("<think>done</think>The total is 5.").finalAnswer());
        assertEquals(Kind.NO_ACTION, n1.parse("<think>done</think>The total is 5.").parseError().kind());
    }

    @Test
    void tagsInsideAThoughtAreJustText() {
        ParsedCompletion p = n1.parse("<think>I must not write <answer> yet.</think><tool_call>[{\"name\":\"now\","
                + "\"arguments\":{}}]</tool_call>");
        assertTrue(p.valid(), String.valueOf(p.parseError()));
        assertEquals("I must not write <answer> yet.", p.thought());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("<think>hmm</think>", Kind.NO_ACTION, "neither"),
                Arguments.of("", Kind.NO_ACTION, "empty"),
                Arguments.of("<think>x</think><tool_call>[{\"name\":\"add\"", Kind.UNCLOSED_TAG, "never closed"),
                Arguments.of("<think>x<answer>1</answer>", Kind.UNCLOSED_TAG, "<think>"),
                Arguments.of("5</answer>", Kind.UNCLOSED_TAG, "no matching"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":1,}}]</tool_call>",
                        Kind.MALFORMED_JSON, "not valid JSON"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":1,\"a\":2,\"b\":3}}]</tool_call>",
                        Kind.MALFORMED_JSON, "Duplicate field"),
                Arguments.of("<tool_call>[{\"name\":\"now\",\"arguments\":{}}] and more</tool_call>",
                        Kind.MALFORMED_JSON, "not valid JSON"),
                Arguments.of("<tool_call>\"add\"</tool_call>", Kind.MALFORMED_JSON, "not a JSON string"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"parameters\":{\"a\":1,\"b\":2}}]</tool_call>",
                        Kind.MALFORMED_JSON, "\"parameters\""),
                Arguments.of("<tool_call>[{\"arguments\":{}}]</tool_call>", Kind.MALFORMED_JSON, "\"name\""),
                Arguments.of("<tool_call>{\"name\":\"add\",\"arguments\":\"a=1\"}</tool_call>",
                        Kind.MALFORMED_JSON, "must be a JSON object"),
                Arguments.of("<tool_call>[{\"name\":\"mul\",\"arguments\":{}}]</tool_call>", Kind.UNKNOWN_TOOL,
                        "no tool named 'mul'; available tools: add, search_emails, now"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":1}}]</tool_call>",
                        Kind.MISSING_ARGUMENT, "tool 'add' needs the argument 'b'"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":1,\"b\":2,\"c\":3}}]</tool_call>",
                        Kind.UNEXPECTED_ARGUMENT, "no argument 'c' (its arguments: a, b)"),
                Arguments.of("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":\"1\",\"b\":2}}]</tool_call>",
                        Kind.WRONG_TYPE, "argument 'a' must be number, got string \"1\""),
                Arguments.of("<tool_call>[{\"name\":\"search_emails\",\"arguments\":{\"keywords\":[\"a\"],"
                        + "\"limit\":2.5}}]</tool_call>", Kind.WRONG_TYPE, "argument 'limit' must be integer"),
                Arguments.of("<tool_call>[{\"name\":\"search_emails\",\"arguments\":{\"keywords\":[\"a\", 7]}}]"
                        + "</tool_call>", Kind.WRONG_TYPE, "argument 'keywords[1]' must be string"),
                Arguments.of("<tool_call>[{\"name\":\"search_emails\",\"arguments\":{\"keywords\":[],"
                        + "\"sender\":false}}]</tool_call>", Kind.WRONG_TYPE, "one of [\"string\",\"null\"]"),
                Arguments.of("<answer>1</answer><answer>2</answer>", Kind.MULTIPLE_ANSWERS, "2 <answer> blocks"),
                Arguments.of("<answer>1</answer> I hope that helps!", Kind.TEXT_AFTER_ANSWER, "I hope that helps!"),
                Arguments.of("<tool_call>[{\"name\":\"now\",\"arguments\":{}}]</tool_call><answer>1</answer>",
                        Kind.CALL_AND_ANSWER, "both"),
                Arguments.of("<tool_call>  </tool_call>", Kind.EMPTY_CALL, "empty"),
                Arguments.of("<tool_call>[]</tool_call>", Kind.EMPTY_CALL, "empty list"),
                Arguments.of("<tool_call>" + "[".repeat(100_000) + "]".repeat(100_000) + "</tool_call>",
                        Kind.MALFORMED_JSON, "nested deeper than 64"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void rejectsWithTheRightKindAndASpecificMessage(String completion, Kind kind, String messagePart) {
        ParsedCompletion p = n1.parse(completion);
        assertEquals(kind, p.parseError() == null ? null : p.parseError().kind(), String.valueOf(p.parseError()));
        assertTrue(p.parseError().message().contains(messagePart), p.parseError().message());
        assertTrue(p.toolCalls().isEmpty(), "a rejected completion carries no calls");
        assertNull(p.finalAnswer(), "a rejected completion carries no answer");
    }

    @Test
    void keepsThoughtAndToolCodeOfARejectedCall() {
        ParsedCompletion p = n1.parse("<think>try mul</think><tool_call>[{\"name\":\"mul\"}]</tool_call>");
        assertEquals("try mul", p.thought());
        assertEquals("[{\"name\":\"mul\"}]", p.toolCode());
    }

    @Test
    void toleratesAMissingArgumentsObjectOnlyWhereNothingIsRequired() {
        assertTrue(n1.parse("<tool_call>[{\"name\":\"now\"}]</tool_call>").valid());
        assertEquals(Kind.MISSING_ARGUMENT, n1.parse("<tool_call>[{\"name\":\"add\"}]</tool_call>").parseError().kind());
    }
}
