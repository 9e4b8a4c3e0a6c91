package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.UntrustedJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Tool-N1's tagged action text: {@code <think>…</think>}, then {@code <tool_call>…</tool_call>} blocks holding a
 * list of calls (one call object per block is read too), or an {@code <answer>…</answer>}; a reply with neither
 * is no action.
 *
 * <p>Strict reading checks from structure to content: tags, then answer rules, then the call JSON, then each
 * call against the tool specs; the first failure is reported. A {@code <think>} block is optional
 * here (its absence is for a format reward to judge); prose around call blocks is tolerated.
 */
public final class TaggedActionCodec implements ToolCallCodec {

    public static final TaggedActionCodec TOOL_N1 = new TaggedActionCodec();

    private static final int MAX_DEPTH = CallDecoder.MAX_DEPTH;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern THINK_BLOCK = Pattern.compile("<think>(.*?)</think>", Pattern.DOTALL);
    private static final Pattern CALL_BLOCK = Pattern.compile("<tool_call>(.*?)</tool_call>", Pattern.DOTALL);

    private TaggedActionCodec() {
    }

    // ---- strict reading

    @Override
    public ParsedCompletion readStrict(String completion, ArgumentValidator tools) {
        String text = completion == null ? "" : completion;
        List<TagScanner.Block> blocks;
        try {
            blocks = TagScanner.scan(text, TagScanner.WITH_ANSWER);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, null, e.error());
        }
        String thought = first(blocks, TagScanner.THINK);
        List<TagScanner.Block> calls = only(blocks, TagScanner.TOOL_CALL);
        String toolCode = calls.isEmpty() ? null
                : calls.stream().map(TagScanner.Block::content).collect(Collectors.joining("\n"));
        try {
            return action(text, thought, blocks, calls, toolCode, tools);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(thought, toolCode, e.error());
        }
    }

    private ParsedCompletion action(String text, String thought, List<TagScanner.Block> blocks,
                                    List<TagScanner.Block> calls, String toolCode, ArgumentValidator tools) throws ActionRejected {
        List<TagScanner.Block> answers = only(blocks, TagScanner.ANSWER);
        if (answers.size() > 1) {
            throw new ActionRejected(ParseError.Kind.MULTIPLE_ANSWERS, "found " + answers.size()
                    + " <answer> blocks; give exactly one");
        }
        if (!answers.isEmpty() && !calls.isEmpty()) {
            throw new ActionRejected(ParseError.Kind.CALL_AND_ANSWER, "a reply either calls tools or answers, "
                    + "but this one has both <tool_call> and <answer>");
        }
        if (!answers.isEmpty()) {
            TagScanner.Block answer = answers.get(0);
            String after = text.substring(answer.end()).strip();
            if (!after.isEmpty()) {
                throw new ActionRejected(ParseError.Kind.TEXT_AFTER_ANSWER, "the reply goes on after </answer>: \""
                        + abbreviate(after) + "\"");
            }
            return new ParsedCompletion(thought, List.of(), null, answer.content().strip(), null);
        }
        if (calls.isEmpty()) {
            throw new ActionRejected(ParseError.Kind.NO_ACTION, text.isBlank() ? "the reply is empty"
                    : "the reply has neither a <tool_call> nor an <answer>");
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        for (TagScanner.Block block : calls) {
            for (CallDecoder.RawCall raw : CallDecoder.decode(block.content())) {
                tools.check(raw);
                toolCalls.add(new ToolCall(raw.name(), CallDecoder.toJava(raw.arguments())));
            }
        }
        return new ParsedCompletion(thought, toolCalls, toolCode, null, null);
    }

    private static String first(List<TagScanner.Block> blocks, String tag) {
        return blocks.stream().filter(b -> b.tag().equals(tag)).map(b -> b.content().strip()).findFirst().orElse(null);
    }

    private static List<TagScanner.Block> only(List<TagScanner.Block> blocks, String tag) {
        return blocks.stream().filter(b -> b.tag().equals(tag)).toList();
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }

    // ---- lenient reading

    @Override
    public CallReading readCalls(String output) {
        String text = output == null ? "" : output;
        String open = ActionTag.TOOL_CALL.open();
        String close = ActionTag.TOOL_CALL.close();
        int first = text.indexOf(open);
        boolean thinking = hasThinkBefore(text, first < 0 ? text.length() : first);
        List<List<JsonNode>> blocks = new ArrayList<>();
        if (first < 0) return new CallReading(blocks, "no " + open + " block", false, thinking);
        int at = first;
        while (at >= 0) {
            int end = text.indexOf(close, at + open.length());
            if (end < 0) return new CallReading(blocks, open + " at offset " + at + " is never closed", true, thinking);
            List<JsonNode> calls = new ArrayList<>();
            String error = readBlock(text.substring(at + open.length(), end).trim(), calls);
            if (error != null) return new CallReading(blocks, error, false, thinking);
            blocks.add(calls);
            at = text.indexOf(open, end + close.length());
        }
        return new CallReading(blocks, null, false, thinking);
    }

    /** Appends the call objects of one block body (a list, or one call); returns an error message, or null. */
    private static String readBlock(String body, List<JsonNode> into) {
        JsonNode node;
        try {
            node = UntrustedJson.readTree(JSON, body, MAX_DEPTH);
        } catch (UntrustedJson.TooDeep e) {
            return "tool call JSON is nested deeper than " + MAX_DEPTH + " levels";
        } catch (JsonProcessingException e) {
            return "tool call is not valid JSON: " + e.getOriginalMessage();
        }
        if (node == null) return "empty " + ActionTag.TOOL_CALL.open() + " block";
        if (node.isArray()) node.forEach(into::add);
        else into.add(node);
        return null;
    }

    /** Whether a closed {@code <think>} block ends before {@code limit}. */
    static boolean hasThinkBefore(String text, int limit) {
        int open = text.indexOf(ActionTag.THINK.open());
        int close = text.indexOf(ActionTag.THINK.close());
        return open >= 0 && close > open && close < limit;
    }

    @Override
    public TextSoFar readSoFar(String text) {
        return new TextSoFar(ActionTag.THINK.soFar(text), ActionTag.ANSWER.soFar(text));
    }

    @Override
    public String textOutsideThinking(String text) {
        return outsideThinking(text);
    }

    /** The text without its closed thinking blocks, cut where an unclosed one begins, stripped. */
    static String outsideThinking(String text) {
        String rest = THINK_BLOCK.matcher(text).replaceAll("");
        int unclosed = rest.indexOf(ActionTag.THINK.open());
        return (unclosed < 0 ? rest : rest.substring(0, unclosed)).strip();
    }

    /** The reply with every closed call block cut out: what an assistant message's content holds beside its calls. */
    @Override
    public String contentBesideCalls(String text) {
        return CALL_BLOCK.matcher(text).replaceAll("").strip();
    }

    // ---- writing

    /** The block and a newline before what follows. */
    @Override
    public String writeThinking(String thinking) {
        return ActionTag.THINK.wrap(thinking) + "\n";
    }

    @Override
    public String writeAnswer(String answer) {
        return ActionTag.ANSWER.wrap(answer);
    }

    @Override
    public String writeCalls(List<ToolCall> calls) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ToolCall c : calls) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("arguments", c.arguments());
            out.add(m);
        }
        try {
            return ActionTag.TOOL_CALL.wrap(JSON.writeValueAsString(out));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool call arguments are not JSON values: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public String writeCalls(List<WrittenCall> calls, boolean ownLine) {
        ArrayNode list = JSON.createArrayNode();
        for (WrittenCall call : calls) {
            ObjectNode c = list.addObject();
            c.put("name", call.name());
            c.set("arguments", call.arguments());
        }
        return ActionTag.TOOL_CALL.wrap(ownLine ? "\n" + list + "\n" : list.toString());
    }
}
