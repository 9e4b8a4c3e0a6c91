package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.ParsedCompletion;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the action parser and every tool-call codec: whatever a model writes, reading it returns a result
 * (the strict reading an action or a parse error, the lenient readings what they could read) and never throws,
 * deep nesting included. Tries: {@code jqwik.tries.default} (root pom; {@code -Pfuzz} for a long run).
 */
class ActionFuzzTest {

    private static final String SEED = "20261124";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<ToolSpec> TOOLS = List.of(
            ToolSpec.of("add", "Adds", "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}, "
                    + "\"b\": {\"type\": \"integer\"}}, \"required\": [\"a\", \"b\"]}"),
            ToolSpec.of("lookup", "Finds", "{\"type\": \"object\", \"properties\": {\"q\": {\"type\": \"string\"}, "
                    + "\"tags\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}}"));

    @Property(seed = SEED)
    void theStrictReadingIsTotal(@ForAll("completions") String text) {
        for (ActionFormat format : ActionFormat.values()) {
            ParsedCompletion parsed = new ActionParser(format, TOOLS).parse(text);
            assertNotNull(parsed);
            assertTrue(parsed.valid() || parsed.parseError() != null, "invalid without a reason: " + parsed);
        }
    }

    @Property(seed = SEED)
    void theLenientReadingsAreTotal(@ForAll("completions") String text) {
        for (ToolCallCodec codec : codecs()) {
            ToolCallCodec.CallReading calls = codec.readCalls(text);
            assertNotNull(calls.blocks());
            assertFalse(calls.blocks().isEmpty() && calls.error() == null, "no calls and no reason");
            assertNotNull(codec.readSoFar(text));
            assertNotNull(codec.textOutsideThinking(text));
        }
    }

    /** A fixed number of tries, also in long runs: each one is up to 400 KB of text, and depth is all that varies. */
    @Property(seed = SEED, tries = 100)
    void deepNestingIsAnErrorNotAStackOverflow(@ForAll("deepCalls") String text) {
        for (ActionFormat format : ActionFormat.values()) {
            if (!(format.codec() instanceof TaggedActionCodec)) continue; // the text is in the tagged layout
            ParsedCompletion parsed = new ActionParser(format, TOOLS).parse(text);
            assertFalse(parsed.valid(), text.length() + " chars read as valid");
            assertTrue(parsed.parseError().message().contains("nested deeper than"), parsed.parseError().message());
            assertTrue(format.codec().readCalls(text).error().contains("nested deeper than"));
        }
    }

    @Property(seed = SEED)
    void whatIsWrittenReadsBack(@ForAll("calls") List<ToolCallCodec.WrittenCall> calls) {
        for (ToolCallCodec codec : codecs()) {
            ToolCallCodec.CallReading reading = codec.readCalls(codec.writeCalls(calls, false));
            assertEquals(null, reading.error());
            // a code action writes every call into one program, which is the one call it reads
            int expected = codec == CodeActCodec.INSTANCE ? 1 : calls.size();
            assertEquals(expected, reading.blocks().stream().mapToInt(List::size).sum());
        }
    }

    private static List<ToolCallCodec> codecs() {
        return List.of(ActionFormat.values()).stream().map(ActionFormat::codec).distinct().toList();
    }

    /** Any text, and text made of the pieces the readers look for, so the interesting paths are reached often. */
    @Provide
    Arbitrary<String> completions() {
        Arbitrary<String> pieces = Arbitraries.of("<think>", "</think>", "<tool_call>", "</tool_call>", "<answer>",
                        "</answer>", "<tool_response>", "[", "]", "{", "}", ",", ":", "\"", "\\", "\"name\"", "\"arguments\"",
                        "\"add\"", "\"lookup\"", "\"a\"", "\"q\"", "1", "-2.5e3", "null", "true", "\"x\"", " ", "\n", "<", ">",
                        "/", "\u0000", "\uD83D", "é", "functools")
                .list().ofMaxSize(80).map(l -> String.join("", l));
        Arbitrary<String> calls = Combinators.combine(Arbitraries.of("add", "lookup", "nope", ""),
                        Arbitraries.strings().withChars("{}[]\":,ab1 ").ofMaxLength(30))
                .as((name, args) -> "<think>t</think><tool_call>[{\"name\": \"" + name + "\", \"arguments\": {" + args + "}}]</tool_call>");
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200), pieces, calls);
    }

    /** A call block whose JSON opens objects or arrays far past any limit, in either of the block's layouts. */
    @Provide
    Arbitrary<String> deepCalls() {
        return Combinators.combine(Arbitraries.integers().between(65, 100_000), Arbitraries.of("[", "{\"a\":"), Arbitraries.of(true, false))
                .as((depth, open, inArguments) -> {
                    String deep = open.repeat(depth);
                    return "<tool_call>" + (inArguments ? "{\"name\": \"add\", \"arguments\": " + deep : deep) + "</tool_call>";
                });
    }

    @Provide
    Arbitrary<List<ToolCallCodec.WrittenCall>> calls() {
        Arbitrary<String> keys = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(10);
        Arbitrary<String> values = Arbitraries.strings().all().ofMaxLength(20);
        return Combinators.combine(Arbitraries.strings().all().ofMinLength(1).ofMaxLength(12),
                        Arbitraries.maps(keys, values).ofMaxSize(4))
                .as((name, args) -> {
                    ObjectNode node = JSON.createObjectNode();
                    args.forEach(node::put);
                    return new ToolCallCodec.WrittenCall(name, node);
                })
                .list().ofMinSize(1).ofMaxSize(3);
    }
}
