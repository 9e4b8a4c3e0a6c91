package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Hermes tool-call format exactly as the Qwen2.5 and Qwen3 chat templates teach it: each call is one
 * {@code <tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>} block, parallel calls are several blocks
 * one per line, and a reply without a call block is the final answer as plain text (there is no
 * {@code <answer>} tag; one in a reply is just text). Qwen3 may open with {@code <think>…</think>}.
 *
 * <p>Strict reading: tags first (an unclosed or stray {@code <think>}/{@code <tool_call>} is an error), then each
 * block must hold exactly one call object (a Tool-N1 list is not this format), then each call is checked against
 * the tool specs. Text before the calls is tolerated (Qwen writes content before its calls); an empty reply, or
 * one that only thinks, is no action.
 */
public final class HermesCodec implements ToolCallCodec {

    public static final HermesCodec INSTANCE = new HermesCodec();

    private static final String OPEN = ActionTag.TOOL_CALL.open();
    private static final String WHERE = "the " + OPEN + " block";

    private HermesCodec() {
    }

    @Override
    public ParsedCompletion readStrict(String completion, ArgumentValidator tools) {
        String text = completion == null ? "" : completion;
        List<TagScanner.Block> blocks;
        try {
            blocks = TagScanner.scan(text, TagScanner.WITHOUT_ANSWER);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, null, e.error());
        }
        String thought = blocks.stream().filter(b -> b.tag().equals(TagScanner.THINK))
                .map(b -> b.content().strip()).findFirst().orElse(null);
        List<TagScanner.Block> calls = blocks.stream().filter(b -> b.tag().equals(TagScanner.TOOL_CALL)).toList();
        if (calls.isEmpty()) {
            String answer = withoutThinking(text, blocks).strip();
            if (!answer.isEmpty()) return new ParsedCompletion(thought, List.of(), null, answer, null);
            return ParsedCompletion.error(thought, null, new ParseError(ParseError.Kind.NO_ACTION, text.isBlank()
                    ? "the reply is empty" : "the reply has neither a " + OPEN + " nor an answer after its thinking"));
        }
        String toolCode = calls.stream().map(TagScanner.Block::content).collect(Collectors.joining("\n"));
        List<ToolCall> toolCalls = new ArrayList<>();
        try {
            for (TagScanner.Block block : calls) {
                CallDecoder.RawCall raw = CallDecoder.decodeOne(block.content(), WHERE, "arguments");
                tools.check(raw);
                toolCalls.add(new ToolCall(raw.name(), CallDecoder.toJava(raw.arguments())));
            }
        } catch (ActionRejected e) {
            return ParsedCompletion.error(thought, toolCode, e.error());
        }
        return new ParsedCompletion(thought, toolCalls, toolCode, null, null);
    }

    private static String withoutThinking(String text, List<TagScanner.Block> blocks) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (TagScanner.Block b : blocks) {
            if (!b.tag().equals(TagScanner.THINK)) continue;
            out.append(text, at, b.start());
            at = b.end();
        }
        return out.append(text.substring(at)).toString();
    }

    /** The same lenient reading as Tool-N1's: every call block, each holding one call or a list. */
    @Override
    public CallReading readCalls(String text) {
        return TaggedActionCodec.TOOL_N1.readCalls(text);
    }

    /** The answer so far is the plain text outside thinking, up to the first call block. */
    @Override
    public TextSoFar readSoFar(String text) {
        String content = TaggedActionCodec.outsideThinking(text);
        int call = content.indexOf(OPEN);
        if (call >= 0) content = content.substring(0, call);
        content = ActionTag.withoutPartialOpening(content, OPEN, ActionTag.THINK.open()).strip();
        return new TextSoFar(ActionTag.THINK.soFar(text), content.isEmpty() ? null : content);
    }

    /** Qwen writes content (and Qwen3 its thinking) before its calls: the text with the call blocks cut out. */
    @Override
    public String contentBesideCalls(String text) {
        return TaggedActionCodec.TOOL_N1.contentBesideCalls(text);
    }

    @Override
    public String textOutsideThinking(String text) {
        return TaggedActionCodec.outsideThinking(text);
    }

    /** Qwen3's layout: the block on lines of its own, a blank line before the reply. */
    @Override
    public String writeThinking(String thinking) {
        return ActionTag.THINK.open() + "\n" + thinking.strip() + "\n" + ActionTag.THINK.close() + "\n\n";
    }

    @Override
    public String writeAnswer(String answer) {
        return answer;
    }

    @Override
    public String writeCalls(List<ToolCall> calls) {
        return calls.stream().map(c -> block(c.name(), c.arguments())).collect(Collectors.joining("\n"));
    }

    /** Always one call per block on its own line, as the template renders them ({@code ownLine} does not apply). */
    @Override
    public String writeCalls(List<WrittenCall> calls, boolean ownLine) {
        return calls.stream().map(c -> block(c.name(), c.arguments())).collect(Collectors.joining("\n"));
    }

    private static String block(String name, Object arguments) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("name", name);
        call.put("arguments", arguments);
        return ActionTag.TOOL_CALL.wrap("\n" + TemplateJson.write(call) + "\n");
    }
}
