package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns a model completion into an action. Total: every string, however broken, maps to a
 * {@link ParsedCompletion}; what is wrong with it is a {@link ParseError} of a specific kind.
 *
 * <p>Checks run from structure to content: tags, then answer rules, then the call JSON, then each
 * call against the tool specs; the first failure is reported. A {@code <think>} block is optional
 * here (its absence is for a format reward to judge); prose around call blocks is tolerated.
 */
public final class ActionParser {

    private final ActionFormat format;
    private final ArgumentValidator validator;

    public ActionParser(ActionFormat format, List<ToolSpec> tools) {
        this.format = format;
        this.validator = new ArgumentValidator(tools);
    }

    public ParsedCompletion parse(String completion) {
        String text = completion == null ? "" : completion;
        List<TagScanner.Block> blocks;
        try {
            blocks = TagScanner.scan(text);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, null, e.error());
        }
        String thought = first(blocks, TagScanner.THINK);
        List<TagScanner.Block> calls = only(blocks, TagScanner.TOOL_CALL);
        String toolCode = calls.isEmpty() ? null
                : calls.stream().map(TagScanner.Block::content).collect(Collectors.joining("\n"));
        try {
            return action(text, thought, blocks, calls, toolCode);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(thought, toolCode, e.error());
        }
    }

    private ParsedCompletion action(String text, String thought, List<TagScanner.Block> blocks,
                                    List<TagScanner.Block> calls, String toolCode) throws ActionRejected {
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
            return plainReply(text, thought, blocks);
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        for (TagScanner.Block block : calls) {
            for (CallDecoder.RawCall raw : CallDecoder.decode(block.content())) {
                validator.check(raw);
                toolCalls.add(new ToolCall(raw.name(), CallDecoder.toJava(raw.arguments())));
            }
        }
        return new ParsedCompletion(thought, toolCalls, toolCode, null, null);
    }

    private ParsedCompletion plainReply(String text, String thought, List<TagScanner.Block> blocks) throws ActionRejected {
        String outsideThought = text;
        if (thought != null) {
            TagScanner.Block think = blocks.stream().filter(b -> b.tag().equals(TagScanner.THINK)).findFirst().orElseThrow();
            outsideThought = text.substring(think.end());
        }
        if (format == ActionFormat.HERMES && !outsideThought.isBlank()) {
            return new ParsedCompletion(thought, List.of(), null, outsideThought.strip(), null);
        }
        throw new ActionRejected(ParseError.Kind.NO_ACTION, text.isBlank() ? "the reply is empty"
                : "the reply has neither a <tool_call> nor an <answer>");
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
}
