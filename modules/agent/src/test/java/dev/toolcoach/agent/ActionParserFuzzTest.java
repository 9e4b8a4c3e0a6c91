package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ParseError.Kind;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Totality and error kinds over random strings and systematic mutations of valid replies (fixed seeds). */
class ActionParserFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FRAGMENTS = List.of("<think>", "</think>", "<tool_call>", "</tool_call>",
            "<answer>", "</answer>", "<", ">", "/", "{", "}", "[", "]", "\"", ":", ",", "\"name\"", "\"arguments\"",
            "\"add\"", "\"now\"", "\"a\"", "\"b\"", "1", "-2.5e3", "null", "true", " ", "\n", "x", "é", "😀", "\\");

    private final ActionParser n1 = new ActionParser(ActionFormat.TOOL_N1, ActionParserTest.TOOLS);
    private final ActionParser hermes = new ActionParser(ActionFormat.HERMES, ActionParserTest.TOOLS);

    @Test
    void everyRandomStringParsesToAConsistentResult() {
        Random random = new Random(7);
        Set<String> outcomes = new TreeSet<>();
        for (int i = 0; i < 6_000; i++) {
            StringBuilder s = new StringBuilder();
            int pieces = random.nextInt(40);
            for (int j = 0; j < pieces; j++) {
                s.append(random.nextInt(8) == 0 ? String.valueOf((char) random.nextInt(0x10000))
                        : FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
            }
            outcomes.add(outcome(checkConsistent(n1, s.toString())));
            outcomes.add("hermes " + outcome(checkConsistent(hermes, s.toString())));
        }
        assertTrue(outcomes.containsAll(Set.of("valid", "hermes valid", "NO_ACTION", "UNCLOSED_TAG", "MALFORMED_JSON",
                "EMPTY_CALL", "MULTIPLE_ANSWERS", "TEXT_AFTER_ANSWER")), "the random strings reach deep: " + outcomes);
    }

    private static String outcome(ParsedCompletion p) {
        return p.valid() ? "valid" : p.parseError().kind().name();
    }

    @Test
    void randomInsertionsIntoValidRepliesNeverThrow() {
        Random random = new Random(11);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder s = new StringBuilder(validCallReply(random));
            for (int k = 0; k <= random.nextInt(3); k++) {
                s.insert(random.nextInt(s.length() + 1), FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
            }
            checkConsistent(n1, s.toString());
        }
    }

    @Test
    void deletingAnyStructuralJsonCharacterIsMalformedJson() {
        Random random = new Random(3);
        for (int i = 0; i < 30; i++) {
            String reply = validCallReply(random);
            int from = reply.indexOf("<tool_call>") + "<tool_call>".length();
            int to = reply.indexOf("</tool_call>");
            for (int at = from; at < to; at++) {
                if ("{}[]:,\"".indexOf(reply.charAt(at)) < 0) continue;
                String mutated = reply.substring(0, at) + reply.substring(at + 1);
                assertKind(Kind.MALFORMED_JSON, mutated);
            }
        }
    }

    @Test
    void everyTruncationOfAValidReplyIsAnUnclosedTagOrNoAction() {
        Random random = new Random(5);
        for (int i = 0; i < 30; i++) {
            String reply = validCallReply(random);
            int callOpenEnd = reply.indexOf("<tool_call>") + "<tool_call>".length();
            for (int cut = 0; cut < reply.length(); cut++) {
                ParsedCompletion p = n1.parse(reply.substring(0, cut));
                assertNotNull(p.parseError(), "a cut reply must not be valid: " + reply.substring(0, cut));
                if (cut >= callOpenEnd) {
                    assertEquals(Kind.UNCLOSED_TAG, p.parseError().kind(), reply.substring(0, cut));
                } else {
                    assertTrue(Set.of(Kind.UNCLOSED_TAG, Kind.NO_ACTION).contains(p.parseError().kind()),
                            reply.substring(0, cut) + " -> " + p.parseError());
                }
            }
        }
    }

    @Test
    void eachSemanticMutationIsCaughtWithItsKind() throws Exception {
        Random random = new Random(13);
        for (int i = 0; i < 100; i++) {
            List<ToolCall> calls = randomCalls(random);
            assertTrue(n1.parse(reply(calls)).valid(), reply(calls));
            int victim = random.nextInt(calls.size());
            ToolCall call = calls.get(victim);

            assertKind(Kind.UNKNOWN_TOOL, reply(replace(calls, victim, new ToolCall(call.name() + "_x", call.arguments()))));
            Map<String, Object> extra = new LinkedHashMap<>(call.arguments());
            extra.put("unexpected_" + i, 1);
            assertKind(Kind.UNEXPECTED_ARGUMENT, reply(replace(calls, victim, new ToolCall(call.name(), extra))));
            for (String required : spec(call.name()).required()) {
                Map<String, Object> missing = new LinkedHashMap<>(call.arguments());
                missing.remove(required);
                assertKind(Kind.MISSING_ARGUMENT, reply(replace(calls, victim, new ToolCall(call.name(), missing))));
            }
            for (String argument : call.arguments().keySet()) {
                Map<String, Object> wrong = new LinkedHashMap<>(call.arguments());
                wrong.put(argument, Map.of("not", "this"));
                assertKind(Kind.WRONG_TYPE, reply(replace(calls, victim, new ToolCall(call.name(), wrong))));
            }
            String valid = reply(calls);
            assertKind(Kind.UNCLOSED_TAG, valid.replace("</tool_call>", ""));
            assertKind(Kind.UNCLOSED_TAG, valid.replace("<tool_call>", ""));
            assertKind(Kind.CALL_AND_ANSWER, valid + "<answer>42</answer>");
            assertKind(Kind.EMPTY_CALL, "<think>t</think><tool_call>\n</tool_call>");
            String answer = "<think>t</think><answer>" + i + "</answer>";
            assertTrue(n1.parse(answer).valid());
            assertKind(Kind.MULTIPLE_ANSWERS, answer + "<answer>" + i + "</answer>");
            assertKind(Kind.TEXT_AFTER_ANSWER, answer + " really " + i);
        }
    }

    private void assertKind(Kind kind, String completion) {
        ParsedCompletion p = checkConsistent(n1, completion);
        if (p.parseError() == null || p.parseError().kind() != kind) {
            fail("expected " + kind + " but got " + p.parseError() + " for: " + completion);
        }
    }

    /** The parser's promises for any input: no exception, and a result that is one clear thing. */
    private static ParsedCompletion checkConsistent(ActionParser parser, String completion) {
        ParsedCompletion p;
        try {
            p = parser.parse(completion);
        } catch (RuntimeException | StackOverflowError e) {
            throw new AssertionError("parser threw on: " + completion, e);
        }
        if (p.valid()) {
            assertTrue(p.finalAnswer() != null ^ !p.toolCalls().isEmpty(), "a valid action is an answer xor calls");
            for (ToolCall c : p.toolCalls()) {
                ToolSpec spec = spec(c.name());
                assertTrue(c.arguments().keySet().containsAll(spec.required()), completion);
            }
        } else {
            assertTrue(p.toolCalls().isEmpty());
            assertNull(p.finalAnswer());
            assertFalse(p.parseError().message().isBlank(), "every error says what is wrong");
        }
        assertEquals(p, parser.parse(completion), "parsing is deterministic");
        return p;
    }

    private static ToolSpec spec(String name) {
        return ActionParserTest.TOOLS.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static String validCallReply(Random random) {
        return reply(randomCalls(random));
    }

    private static String reply(List<ToolCall> calls) {
        List<Map<String, Object>> json = new ArrayList<>();
        for (ToolCall c : calls) json.add(Map.of("name", c.name(), "arguments", c.arguments()));
        try {
            return "<think>I will use " + calls.size() + " tools.</think>\n<tool_call>" + JSON.writeValueAsString(json)
                    + "</tool_call>";
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<ToolCall> replace(List<ToolCall> calls, int index, ToolCall by) {
        List<ToolCall> copy = new ArrayList<>(calls);
        copy.set(index, by);
        return copy;
    }

    private static List<ToolCall> randomCalls(Random random) {
        List<ToolCall> calls = new ArrayList<>();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            Map<String, Object> args = new LinkedHashMap<>();
            switch (random.nextInt(3)) {
                case 0 -> {
                    args.put("a", random.nextBoolean() ? random.nextInt(1000) : random.nextDouble() * 100);
                    args.put("b", random.nextInt(50) - 25);
                    calls.add(new ToolCall("add", args));
                }
                case 1 -> {
                    args.put("keywords", List.of("gas", "word" + random.nextInt(99)));
                    if (random.nextBoolean()) args.put("limit", 1 + random.nextInt(20));
                    calls.add(new ToolCall("search_emails", args));
                }
                default -> calls.add(new ToolCall("now", args));
            }
        }
        return calls;
    }
}
