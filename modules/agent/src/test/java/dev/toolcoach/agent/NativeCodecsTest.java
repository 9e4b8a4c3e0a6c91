package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.trace.ParseError.Kind;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every action format's codec: write → read round trips, the strict errors, totality and streaming (fixed seeds). */
class NativeCodecsTest {

    /** Tools that take any arguments, so round trips test the codec rather than the validator. */
    private static final List<ToolSpec> OPEN_TOOLS = List.of(
            ToolSpec.of("add", "", "{\"type\":\"object\",\"additionalProperties\":true}"),
            ToolSpec.of("search_emails", "", "{\"type\":\"object\",\"additionalProperties\":true}"),
            ToolSpec.of("now", "", "{\"type\":\"object\",\"additionalProperties\":true}"));
    private static final ArgumentValidator OPEN = new ArgumentValidator(OPEN_TOOLS);
    private static final ArgumentValidator TOOLS = new ArgumentValidator(ActionParserTest.TOOLS);

    private static final ToolCallCodec HERMES = ActionFormat.HERMES.codec();
    private static final ToolCallCodec LLAMA = ActionFormat.LLAMA3_JSON.codec();
    private static final ToolCallCodec PHI = ActionFormat.PHI.codec();

    /** Every format whose calls are calls (a code action writes them into one program: CodeActCodecTest). */
    @ParameterizedTest
    @EnumSource(value = ActionFormat.class, names = "CODE_ACT", mode = EnumSource.Mode.EXCLUDE)
    void writtenCallsReadBackStrictlyAndLenientlyWithOrderAndNumberTypesKept(ActionFormat format) {
        ToolCallCodec codec = format.codec();
        Random random = new Random(17);
        for (int i = 0; i < 300; i++) {
            // Llama 3's template renders one call per turn, but ';'-separated calls read back too
            List<ToolCall> calls = randomCalls(random, 1 + random.nextInt(3));
            String thinking = random.nextBoolean() ? codec.writeThinking("plan <b> & \"quotes\"") : "";
            String text = thinking + codec.writeCalls(calls);
            ParsedCompletion read = codec.readStrict(text, OPEN);
            assertTrue(read.valid(), format + ": " + read.parseError() + " in " + text);
            assertEquals(calls, read.toolCalls(), text);
            for (int c = 0; c < calls.size(); c++) {
                assertEquals(List.copyOf(calls.get(c).arguments().keySet()), List.copyOf(read.toolCalls().get(c).arguments().keySet()),
                        "argument order: " + text);
            }
            ToolCallCodec.CallReading lenient = codec.readCalls(text);
            assertNull(lenient.error(), text);
            List<String> names = lenient.blocks().stream().flatMap(List::stream).map(n -> n.path("name").asText()).toList();
            assertEquals(calls.stream().map(ToolCall::name).toList(), names);
            JsonNode firstArgs = lenient.blocks().get(0).get(0).path("arguments");
            assertEquals(calls.get(0).arguments().size(), firstArgs.size(), "lenient reading reports arguments: " + text);
        }
    }

    @ParameterizedTest
    @EnumSource(ActionFormat.class)
    void writtenAnswersReadBackAsTheAnswer(ActionFormat format) {
        ToolCallCodec codec = format.codec();
        for (String answer : List.of("42", "The payment is $141.34 a month.", "two\nlines with <b>tags</b>")) {
            ParsedCompletion read = codec.readStrict(codec.writeThinking("done") + codec.writeAnswer(answer), TOOLS);
            assertTrue(read.valid(), format + ": " + read.parseError());
            assertEquals(answer, read.finalAnswer());
            assertTrue(read.toolCalls().isEmpty());
        }
    }

    @Test
    void hermesWritesWhatTheQwenTemplatesRender() {
        List<ToolCall> calls = List.of(new ToolCall("add", ordered("a", 2, "b", 3.5)), new ToolCall("now", Map.of()));
        assertEquals("<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3.5}}\n</tool_call>\n"
                + "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>", HERMES.writeCalls(calls));
        assertEquals("<think>\nplan\n</think>\n\n", HERMES.writeThinking("plan"), "Qwen3's layout");
        assertEquals("It is 5.", HERMES.writeAnswer("It is 5."), "no <answer> tag");
        assertEquals("{\"name\": \"add\", \"parameters\": {\"a\": 2, \"b\": 3.5}}", LLAMA.writeCalls(calls.subList(0, 1)));
        assertEquals("", LLAMA.writeThinking("plan"), "Llama 3 has no thinking");
        assertEquals("{\"name\": \"ü\", \"parameters\": {\"s\": \"é 😀\"}}",
                LLAMA.writeCalls(List.of(new ToolCall("ü", Map.of("s", "é 😀")))), "non-ASCII kept, as tojson does");
    }

    @Test
    void hermesStrictReading() {
        ParsedCompletion qwen3 = HERMES.readStrict("<think>\nAdd first.\n</think>\n\n<tool_call>\n{\"name\": \"add\", "
                + "\"arguments\": {\"a\": 1, \"b\": 2}}\n</tool_call>", TOOLS);
        assertTrue(qwen3.valid(), String.valueOf(qwen3.parseError()));
        assertEquals("Add first.", qwen3.thought());
        assertEquals(List.of(new ToolCall("add", Map.of("a", 1, "b", 2))), qwen3.toolCalls());

        assertEquals("<answer>5</answer>", HERMES.readStrict("<answer>5</answer>", TOOLS).finalAnswer(),
                "an <answer> tag is not part of Hermes: it is plain text");
        assertEquals(List.of(new ToolCall("now", Map.of())),
                HERMES.readStrict("Let me look.\n<tool_call>\n{\"name\": \"now\"}\n</tool_call>", TOOLS).toolCalls(),
                "content before the calls is tolerated");
        assertKind(HERMES, Kind.MALFORMED_JSON, "<tool_call>[{\"name\": \"now\", \"arguments\": {}}]</tool_call>");
        assertKind(HERMES, Kind.MALFORMED_JSON, "<tool_call>\n{\"name\": \"now\", \"args\": {}}\n</tool_call>");
        assertKind(HERMES, Kind.MALFORMED_JSON, "<tool_call>\n{\"name\": \"now\"\n</tool_call>");
        assertKind(HERMES, Kind.UNCLOSED_TAG, "<tool_call>\n{\"name\": \"now\"}");
        assertKind(HERMES, Kind.UNCLOSED_TAG, "<think>still thinking");
        assertKind(HERMES, Kind.UNCLOSED_TAG, "done</tool_call>");
        assertKind(HERMES, Kind.NO_ACTION, "<think>only thinking</think>\n\n");
        assertKind(HERMES, Kind.NO_ACTION, "  ");
        assertKind(HERMES, Kind.EMPTY_CALL, "<tool_call>\n</tool_call>");
        assertKind(HERMES, Kind.UNKNOWN_TOOL, "<tool_call>\n{\"name\": \"mul\", \"arguments\": {}}\n</tool_call>");
        assertKind(HERMES, Kind.MISSING_ARGUMENT, "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"b\": 1}}\n</tool_call>");
    }

    @Test
    void llamaStrictReading() {
        ParsedCompletion call = LLAMA.readStrict("{\"name\": \"add\", \"parameters\": {\"a\": 1, \"b\": 2.0}}", TOOLS);
        assertTrue(call.valid(), String.valueOf(call.parseError()));
        assertEquals(List.of(new ToolCall("add", Map.of("a", 1, "b", 2.0))), call.toolCalls());
        assertEquals(2, LLAMA.readStrict("<|python_tag|>{\"name\": \"now\", \"parameters\": {}}; {\"name\": \"now\"}", TOOLS)
                .toolCalls().size(), "the python tag and ';'-separated calls");
        assertEquals("The sum is 3.", LLAMA.readStrict(" The sum is 3.\n", TOOLS).finalAnswer());
        assertEquals("I'd call {\"name\": \"now\"}", LLAMA.readStrict("I'd call {\"name\": \"now\"}", TOOLS).finalAnswer(),
                "only a reply that starts with an object is a call");

        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"name\": \"now\", \"arguments\": {}}");
        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"name\": \"now\", \"parameters\": {}} and then some");
        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"name\": \"now\", \"parameters\": {}");
        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"name\": \"now\", \"parameters\": [1]}");
        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"name\": \"now\", \"name\": \"add\"}");
        assertKind(LLAMA, Kind.MALFORMED_JSON, "{\"parameters\": {}}");
        assertKind(LLAMA, Kind.NO_ACTION, "\n");
        assertKind(LLAMA, Kind.UNKNOWN_TOOL, "{\"name\": \"mul\", \"parameters\": {}}");
        assertKind(LLAMA, Kind.WRONG_TYPE, "{\"name\": \"add\", \"parameters\": {\"a\": \"one\", \"b\": 2}}");
    }

    @Test
    void llamaLenientReadingTakesArgumentsToo() {
        ToolCallCodec.CallReading reading = LLAMA.readCalls("{\"name\": \"add\", \"arguments\": {\"a\": 1}}");
        assertNull(reading.error());
        assertEquals(1, reading.blocks().get(0).get(0).path("arguments").path("a").asInt());
        ToolCallCodec.CallReading renamed = LLAMA.readCalls("{\"name\": \"add\", \"parameters\": {\"a\": 1}}");
        assertEquals("{\"name\":\"add\",\"arguments\":{\"a\":1}}", renamed.blocks().get(0).get(0).toString());
        ToolCallCodec.CallReading cut = LLAMA.readCalls("{\"name\": \"now\"}; {\"name\": \"ad");
        assertEquals(1, cut.blocks().size());
        assertTrue(cut.cutOff());
        assertEquals("no call: the reply is not a JSON object", LLAMA.readCalls("It is 3.").error());
    }

    @Test
    void phiStrictReading() {
        ParsedCompletion call = PHI.readStrict("functools[{\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2.0}}]", TOOLS);
        assertTrue(call.valid(), String.valueOf(call.parseError()));
        assertEquals(List.of(new ToolCall("add", Map.of("a", 1, "b", 2.0))), call.toolCalls());
        assertEquals(2, PHI.readStrict(" functools [{\"name\": \"now\", \"arguments\": {}}, {\"name\": \"now\"}]\n", TOOLS)
                .toolCalls().size(), "parallel calls are one list");
        assertEquals("The sum is 3.", PHI.readStrict(" The sum is 3.\n", TOOLS).finalAnswer());
        assertEquals("functools.reduce folds a list", PHI.readStrict("functools.reduce folds a list", TOOLS).finalAnswer(),
                "the word alone is text");

        assertKind(PHI, Kind.MALFORMED_JSON, "Let me check. functools[{\"name\": \"now\", \"arguments\": {}}]");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[{\"name\": \"now\", \"arguments\": {}}] and then some");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[{\"name\": \"now\", \"arguments\": {}}");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[{\"name\": \"now\", \"parameters\": {}}]");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[{\"name\": \"now\", \"arguments\": [1]}]");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[\"now\"]");
        assertKind(PHI, Kind.MALFORMED_JSON, "functools[" + "[".repeat(10_000));
        assertKind(PHI, Kind.EMPTY_CALL, "functools[]");
        assertKind(PHI, Kind.NO_ACTION, " \n");
        assertKind(PHI, Kind.UNKNOWN_TOOL, "functools[{\"name\": \"mul\", \"arguments\": {}}]");
        assertKind(PHI, Kind.WRONG_TYPE, "functools[{\"name\": \"add\", \"arguments\": {\"a\": \"one\", \"b\": 2}}]");
        assertTrue(PHI.readStrict("functools[" + "{\"a\":".repeat(100) + "1" + "}".repeat(100) + "]", TOOLS)
                .parseError().message().contains("nested deeper than"));
    }

    @Test
    void phiLenientReading() {
        ToolCallCodec.CallReading reading = PHI.readCalls("Sure. functools[{\"name\": \"add\", \"arguments\": {\"a\": 1}}] done");
        assertNull(reading.error());
        assertEquals("{\"name\":\"add\",\"arguments\":{\"a\":1}}", reading.blocks().get(0).get(0).toString());
        ToolCallCodec.CallReading cut = PHI.readCalls("functools[{\"name\": \"now\"}, {\"name\": \"ad");
        assertTrue(cut.cutOff());
        assertEquals("no call: the reply has no functools[...] list", PHI.readCalls("It is 3.").error());
        assertTrue(PHI.readCalls("functools[" + "[".repeat(100_000)).error().contains("nested deeper than"));
        assertEquals("functools[{\"name\": \"now\", \"arguments\": {}}]",
                PHI.contentBesideCalls(" functools[{\"name\": \"now\", \"arguments\": {}}]\n"),
                "Phi-4-mini's template renders content only, so the call stays in it");
    }

    @Test
    void formatsAreFoundByName() {
        for (ActionFormat f : ActionFormat.values()) assertEquals(f, ActionFormat.named(f.formatName()));
        assertEquals(ActionFormat.HERMES, ActionFormat.named("hermes"));
        assertEquals(ActionFormat.LLAMA3_JSON, ActionFormat.named("llama3-json"));
        assertEquals(ActionFormat.PHI, ActionFormat.named("phi"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ActionFormat.named("qwen"));
        assertEquals("unknown action format 'qwen'; known: tool-n1, tool-n1-compact, hermes, llama3-json, phi, code-act", e.getMessage());
        assertTrue(ActionFormat.LLAMA3_JSON.resultsInToolRole() && ActionFormat.PHI.resultsInToolRole());
        assertTrue(!ActionFormat.HERMES.resultsInToolRole() && !ActionFormat.TOOL_N1.resultsInToolRole());
    }

    private static final List<String> FRAGMENTS = List.of("<think>", "</think>", "<tool_call>", "</tool_call>", "<answer>",
            "</answer>", "<|python_tag|>", "{", "}", "[", "]", "\"", ":", ";", ",", "\"name\"", "\"arguments\"",
            "\"parameters\"", "functools", "functools[", "\"add\"", "\"now\"", "\"a\"", "1", "2.5", "null", " ", "\n", "x", "é", "\\");

    @ParameterizedTest
    @EnumSource(ActionFormat.class)
    void everyReadingIsTotalOverRandomStrings(ActionFormat format) {
        ToolCallCodec codec = format.codec();
        Random random = new Random(5);
        int valid = 0;
        for (int i = 0; i < 3_000; i++) {
            StringBuilder s = new StringBuilder();
            for (int j = random.nextInt(30); j > 0; j--) {
                s.append(random.nextInt(10) == 0 ? String.valueOf((char) random.nextInt(0x10000))
                        : FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
            }
            String text = s.toString();
            ParsedCompletion p = codec.readStrict(text, TOOLS);
            assertNotNull(p, text);
            if (p.valid()) {
                valid++;
                assertTrue(p.finalAnswer() != null ^ !p.toolCalls().isEmpty(), "an action is calls or an answer: " + text);
            } else {
                assertTrue(p.toolCalls().isEmpty() && p.finalAnswer() == null, text);
                assertTrue(!p.parseError().message().isBlank(), text);
            }
            codec.readCalls(text);
            codec.readSoFar(text);
            codec.textOutsideThinking(text);
        }
        assertTrue(valid > 0, "some random strings are valid replies");
    }

    /** What streams while a reply grows is always a prefix of what the whole reply gives. */
    @ParameterizedTest
    @EnumSource(value = ActionFormat.class, names = {"HERMES", "LLAMA3_JSON", "PHI"})
    void answerSoFarOnlyGrows(ActionFormat format) {
        ToolCallCodec codec = format.codec();
        List<String> replies = List.of(codec.writeThinking("think <t>") + "The answer is <b>5</b>.",
                "Checking.\n" + codec.writeCalls(List.of(new ToolCall("now", Map.of()))),
                codec.writeCalls(List.of(new ToolCall("add", Map.of("a", 1)))), "<thin is not a tag");
        for (String reply : replies) {
            String last = "";
            for (int end = 0; end <= reply.length(); end++) {
                String answer = codec.readSoFar(reply.substring(0, end)).answer();
                if (answer == null) continue;
                assertTrue(answer.startsWith(last), format + ": '" + answer + "' after '" + last + "' in " + reply);
                last = answer;
            }
        }
        assertNull(codec.readSoFar(codec.writeCalls(List.of(new ToolCall("now", Map.of())))).answer(), "calls never stream as text");
    }

    private static void assertKind(ToolCallCodec codec, Kind kind, String text) {
        ParsedCompletion p = codec.readStrict(text, TOOLS);
        assertNotNull(p.parseError(), text);
        assertEquals(kind, p.parseError().kind(), text + ": " + p.parseError().message());
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static List<ToolCall> randomCalls(Random random, int n) {
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> args = new LinkedHashMap<>();
            for (int k = random.nextInt(5); k > 0; k--) args.put(randomKey(random), randomValue(random, 2));
            calls.add(new ToolCall(OPEN_TOOLS.get(random.nextInt(OPEN_TOOLS.size())).name(), args));
        }
        return calls;
    }

    private static String randomKey(Random random) {
        List<String> keys = List.of("z", "a", "principal", "years", "m", "b2", "ключ");
        return keys.get(random.nextInt(keys.size())) + random.nextInt(100);
    }

    private static Object randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 7);
        return switch (kind) {
            case 0 -> random.nextInt(2000) - 1000;
            case 1 -> (double) Math.round(random.nextDouble() * 1e4) / 100;
            case 2 -> (double) random.nextInt(50);
            case 3 -> 1L << 40 + random.nextInt(20);
            case 4 -> List.of("plain", "with \"quotes\" and \\", "<tool_call> inside", "{\"name\": 1}", "é 😀", "a;b")
                    .get(random.nextInt(6));
            case 5 -> random.nextBoolean();
            case 6 -> List.of("", " ").get(random.nextInt(2));
            case 7 -> List.of(randomValue(random, depth - 1), randomValue(random, depth - 1));
            default -> ordered(randomKey(random), randomValue(random, depth - 1), randomKey(random), randomValue(random, depth - 1));
        };
    }
}
