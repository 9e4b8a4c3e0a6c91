package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A code action (CodeAct, smolagents' CodeAgent): {@code <think>…</think>}, then a Python program in
 * {@code <code>…</code>} that calls the offered tools as functions, or an {@code <answer>…</answer>}.
 *
 * <p>The program is one call of the {@value #PYTHON_TOOL} tool with its text as the {@value #CODE_ARGUMENT}
 * argument, so the agent loop, traces and rewards treat it like any call; whoever runs it (a sandboxed
 * interpreter bridging the program's function calls to the real tools) answers with one result. Strict reading
 * does not check the program: the interpreter reports its syntax errors and exceptions as the call's error
 * observation, as a CodeAgent's execution log does. Written calls become a program printing each call's result,
 * so an oracle's or a teacher's calls can be replayed as code.
 */
public final class CodeActCodec implements ToolCallCodec {

    public static final CodeActCodec INSTANCE = new CodeActCodec();
    /** The one tool a code action calls. */
    public static final String PYTHON_TOOL = "python";
    /** Its argument: the program's text. */
    public static final String CODE_ARGUMENT = "code";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CODE_BLOCK = Pattern.compile("<code>(.*?)</code>", Pattern.DOTALL);

    private CodeActCodec() {
    }

    /** The call that runs {@code program}. */
    public static ToolCall programCall(String program) {
        return new ToolCall(PYTHON_TOOL, Map.of(CODE_ARGUMENT, program));
    }

    @Override
    public ParsedCompletion readStrict(String completion, ArgumentValidator tools) {
        String text = completion == null ? "" : completion;
        List<TagScanner.Block> blocks;
        try {
            blocks = TagScanner.scan(text, TagScanner.WITH_CODE);
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, null, e.error());
        }
        String thought = blocks.stream().filter(b -> b.tag().equals(TagScanner.THINK)).map(b -> b.content().strip())
                .findFirst().orElse(null);
        List<TagScanner.Block> code = blocks.stream().filter(b -> b.tag().equals(TagScanner.CODE)).toList();
        List<TagScanner.Block> answers = blocks.stream().filter(b -> b.tag().equals(TagScanner.ANSWER)).toList();
        String program = code.stream().map(b -> dedentFence(b.content())).collect(Collectors.joining("\n"));
        if (answers.size() > 1) {
            return ParsedCompletion.error(thought, null, new ParseError(ParseError.Kind.MULTIPLE_ANSWERS,
                    "found " + answers.size() + " <answer> blocks; give exactly one"));
        }
        if (!answers.isEmpty() && !code.isEmpty()) {
            return ParsedCompletion.error(thought, program, new ParseError(ParseError.Kind.CALL_AND_ANSWER,
                    "a reply either runs code or answers, but this one has both <code> and <answer>"));
        }
        if (!answers.isEmpty()) {
            TagScanner.Block answer = answers.get(0);
            if (!text.substring(answer.end()).isBlank()) {
                return ParsedCompletion.error(thought, null, new ParseError(ParseError.Kind.TEXT_AFTER_ANSWER,
                        "the reply goes on after </answer>"));
            }
            return new ParsedCompletion(thought, List.of(), null, answer.content().strip(), null);
        }
        if (code.isEmpty() || program.isBlank()) {
            return ParsedCompletion.error(thought, code.isEmpty() ? null : program, new ParseError(ParseError.Kind.NO_ACTION,
                    text.isBlank() ? "the reply is empty" : code.isEmpty() ? "the reply has neither a <code> nor an <answer>"
                            : "the <code> block is empty"));
        }
        return new ParsedCompletion(thought, List.of(programCall(program)), program, null, null);
    }

    /** The program without a Markdown fence a model may put inside the block. */
    private static String dedentFence(String content) {
        String body = content.strip();
        if (body.startsWith("```")) {
            int firstLine = body.indexOf('\n');
            body = firstLine < 0 ? "" : body.substring(firstLine + 1);
            if (body.endsWith("```")) body = body.substring(0, body.length() - 3);
        }
        return body.strip();
    }

    @Override
    public CallReading readCalls(String output) {
        String text = output == null ? "" : output;
        List<List<JsonNode>> blocks = new ArrayList<>();
        var matcher = CODE_BLOCK.matcher(text);
        while (matcher.find()) {
            ObjectNode call = JsonNodeFactory.instance.objectNode();
            call.put("name", PYTHON_TOOL);
            call.putObject("arguments").put(CODE_ARGUMENT, dedentFence(matcher.group(1)));
            blocks.add(List.of(call));
        }
        int open = text.indexOf(ActionTag.CODE.open());
        boolean thinking = TaggedActionCodec.hasThinkBefore(text, open < 0 ? text.length() : open);
        if (blocks.isEmpty()) {
            boolean cutOff = open >= 0;
            return new CallReading(blocks, cutOff ? "<code> is never closed" : "no <code> block", cutOff, thinking);
        }
        return new CallReading(blocks, null, false, thinking);
    }

    /** Thinking and answers are Tool-N1's tagged blocks, read as it reads them. */
    @Override
    public TextSoFar readSoFar(String text) {
        return TaggedActionCodec.TOOL_N1.readSoFar(text);
    }

    @Override
    public String textOutsideThinking(String text) {
        return TaggedActionCodec.TOOL_N1.textOutsideThinking(text);
    }

    @Override
    public String contentBesideCalls(String text) {
        return CODE_BLOCK.matcher(text).replaceAll("").strip();
    }

    @Override
    public String writeThinking(String thinking) {
        return TaggedActionCodec.TOOL_N1.writeThinking(thinking);
    }

    @Override
    public String writeAnswer(String answer) {
        return TaggedActionCodec.TOOL_N1.writeAnswer(answer);
    }

    /** A program call as its code; other calls as a program printing each call's result. */
    @Override
    public String writeCalls(List<ToolCall> calls) {
        if (calls.size() == 1 && calls.get(0).name().equals(PYTHON_TOOL)) {
            return ActionTag.CODE.wrap("\n" + calls.get(0).arguments().get(CODE_ARGUMENT) + "\n");
        }
        return writeCalls(calls.stream().map(c -> new WrittenCall(c.name(), JSON.valueToTree(c.arguments()))).toList(), true);
    }

    @Override
    public String writeCalls(List<WrittenCall> calls, boolean ownLine) {
        String program = calls.stream().map(c -> "print(" + c.name() + "(" + keywordArguments(c.arguments()) + "))")
                .collect(Collectors.joining("\n"));
        return ActionTag.CODE.wrap(ownLine ? "\n" + program + "\n" : program);
    }

    /**
     * {@code a="x", b=2}: JSON literals read as Python, except for true, false and null. A name Python cannot take as
     * a keyword argument (a reserved word such as {@code from}, or not an identifier) goes in a trailing
     * {@code **{"from": "x"}}, which passes the same argument.
     */
    private static String keywordArguments(JsonNode arguments) {
        if (arguments == null || !arguments.isObject()) return "";
        List<String> out = new ArrayList<>();
        List<String> unpacked = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = arguments.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (PYTHON_NAME.matcher(f.getKey()).matches() && !PYTHON_KEYWORDS.contains(f.getKey())) {
                out.add(f.getKey() + "=" + pythonLiteral(f.getValue()));
            } else {
                unpacked.add(JsonNodeFactory.instance.textNode(f.getKey()) + ": " + pythonLiteral(f.getValue()));
            }
        }
        if (!unpacked.isEmpty()) out.add("**{" + String.join(", ", unpacked) + "}");
        return String.join(", ", out);
    }

    private static final Pattern PYTHON_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Python 3's reserved words ({@code keyword.kwlist}). */
    private static final java.util.Set<String> PYTHON_KEYWORDS = java.util.Set.of("False", "None", "True", "and", "as", "assert",
            "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
            "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
            "with", "yield");

    static String pythonLiteral(JsonNode value) {
        if (value == null || value.isNull()) return "None";
        if (value.isBoolean()) return value.booleanValue() ? "True" : "False";
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(v -> items.add(pythonLiteral(v)));
            return "[" + String.join(", ", items) + "]";
        }
        if (value.isObject()) {
            List<String> items = new ArrayList<>();
            value.fields().forEachRemaining(f -> items.add(JsonNodeFactory.instance.textNode(f.getKey()) + ": "
                    + pythonLiteral(f.getValue())));
            return "{" + String.join(", ", items) + "}";
        }
        return value.toString(); // a JSON string or number is a Python literal of the same value
    }
}
