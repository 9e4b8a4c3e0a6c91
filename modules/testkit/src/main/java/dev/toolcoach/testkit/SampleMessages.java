package dev.toolcoach.testkit;

import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Realistic protocol payloads built from a fixed seed, shared by the serializer tests and benchmark. */
public final class SampleMessages {

    private SampleMessages() {
    }

    /** A two-turn trace (a tool call, then an answer, plus a parse error turn) with {@code tokens} tokens. */
    public static Trace trace(String rolloutId, int tokens, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] ids = new int[tokens];
        int[] mask = new int[tokens];
        float[] logprobs = new float[tokens];
        int[] versions = new int[tokens];
        int prompt = Math.min(tokens, 64);
        for (int i = 0; i < tokens; i++) {
            ids[i] = random.nextInt(32_000);
            boolean generated = i >= prompt && random.nextInt(4) != 0;
            mask[i] = generated ? 1 : 0;
            logprobs[i] = generated ? (float) -random.nextDouble(5.0) : 0f;
            versions[i] = generated ? 7 : -1;
        }
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("a", 12);
        arguments.put("b", 30.5);
        arguments.put("tags", new ArrayList<>(List.of("x", "y")));
        ToolCall call = new ToolCall("add", arguments);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("sum", 42.5);
        structured.put("exact", true);
        ToolResult result = ToolResult.ok(call, "42.5", structured, 3, false);
        Turn first = new Turn("<user>add 12 and 30.5</user>", "<think>add</think><tool_call>[...]</tool_call>",
                new ParsedCompletion("add", List.of(call), "[...]", null, null), "<tool_response>42.5</tool_response>",
                List.of(result), List.of(Message.user("add 12 and 30.5"), Message.assistant("calling add")), prompt,
                prompt + tokens / 3);
        Turn broken = new Turn("...", "<tool_call>[{", ParsedCompletion.error(null, "[{",
                new ParseError(ParseError.Kind.MALFORMED_JSON, "unexpected end")), null, null, null,
                prompt + tokens / 3, prompt + tokens / 2);
        Turn last = new Turn("...", "<answer>42.5</answer>", new ParsedCompletion(null, List.of(), null, "42.5", null),
                null, List.of(), List.of(), prompt + tokens / 2, tokens);
        return new Trace(rolloutId, "group-1", "query-9", "add 12 and 30.5", List.of(first, broken, last),
                new TokenRecord(prompt, ids, mask, logprobs, versions), "42.5", Termination.ANSWER, null,
                1_700_000_000_000L, 1234, Map.of("athlete", "athlete-1", "gold", 42.5));
    }

    /** Deterministic pseudo-random floats, the shape of a flattened LoRA adapter. */
    public static float[] adapter(int floats, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] values = new float[floats];
        for (int i = 0; i < floats; i++) {
            values[i] = (float) (random.nextGaussian() * 0.02);
        }
        return values;
    }
}
