package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The action formats a model can be asked to act in: each is a system prompt, the {@link ToolCallCodec} that
 * reads and writes its replies, and how tool results go back. Tool-N1 is the project's own format (any model
 * can be taught it by its system prompt); the others are model families' native formats, each exactly as the
 * family's chat template teaches it. Each has a {@link #formatName() name} users and configs choose it by.
 */
public enum ActionFormat {

    /** Nemotron Tool-N1: think, then a list of calls or an {@code <answer>}; plain text is no action. */
    TOOL_N1("tool-n1", TaggedActionCodec.TOOL_N1, false) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return """
                    You are a helpful assistant that solves the user's task with the tools below.

                    Available tools (JSON schema):
                    %s

                    In every reply, first think inside <think>...</think>. Then either call tools as a JSON list:
                    <tool_call>[{"name": "tool name", "arguments": {"argument": "value"}}]</tool_call>
                    or, once you know it, give the final answer:
                    <answer>final answer</answer>
                    Tool results come back inside <tool_response>...</tool_response>.""".formatted(toolLines(tools, false));
        }

        @Override
        public String reminder() {
            return "Reply with <think>...</think> followed by either <tool_call>[{\"name\": ..., \"arguments\": {...}}]"
                    + "</tool_call> or <answer>...</answer>.";
        }
    },

    /**
     * Tool-N1 with each tool as one signature line instead of its JSON schema: for small models every
     * rollout and training row pays for the prompt, and a schema is several times longer. Replies and
     * parsing are exactly {@link #TOOL_N1}'s; the full schemas still drive argument validation.
     */
    TOOL_N1_COMPACT("tool-n1-compact", TaggedActionCodec.TOOL_N1, false) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return """
                    Solve the user's task with these tools (? marks an optional argument):
                    %s
                    Reply with <think>...</think> then <tool_call>[{"name": "tool", "arguments": {...}}]</tool_call> \
                    or <answer>final answer</answer>. Tool results come back in <tool_response>...</tool_response>.""".formatted(
                    tools.stream().map(ActionFormat::signature).collect(Collectors.joining("\n")));
        }

        @Override
        public String reminder() {
            return TOOL_N1.reminder();
        }
    },

    /**
     * Hermes, native to Qwen2.5 and Qwen3 ({@link HermesCodec}). The system prompt is the Qwen templates' own tools
     * section word for word, so a client's system message followed by it renders as the template renders tools.
     * Results go back as a user turn of {@code <tool_response>} blocks: exactly what Qwen's templates make of
     * tool messages, and still readable through a template without a tool role.
     */
    HERMES("hermes", HermesCodec.INSTANCE, false) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
                    + "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
                    + toolLines(tools, true)
                    + "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
                    + "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
                    + "<args-json-object>}\n</tool_call>";
        }

        @Override
        public Optional<String> templateSystemPrompt() {
            return Optional.of(NATIVE_SYSTEM_PROMPT);
        }

        @Override
        public String reminder() {
            return "Call a tool with <tool_call>\n{\"name\": ..., \"arguments\": {...}}\n</tool_call> or reply with the answer.";
        }
    },

    /**
     * Llama 3.x JSON calls ({@link Llama3JsonCodec}); the system prompt is the Llama 3.1/3.2 templates' wording for
     * tools in the system message. Results go back in the template's own tool role (rendered as {@code ipython}).
     */
    LLAMA3_JSON("llama3-json", Llama3JsonCodec.INSTANCE, true) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return "You have access to the following functions. To call a function, please respond with JSON for a "
                    + "function call.Respond in the format {\"name\": function name, \"parameters\": dictionary of "
                    + "argument name and its value}.Do not use variables.\n\n"
                    + tools.stream().map(t -> functionJson(t) + "\n\n").collect(Collectors.joining());
        }

        @Override
        public Optional<String> templateSystemPrompt() {
            return Optional.of(NATIVE_SYSTEM_PROMPT);
        }

        @Override
        public String reminder() {
            return "Call a function with one JSON object {\"name\": ..., \"parameters\": {...}} and nothing else, "
                    + "or reply with the answer as plain text.";
        }
    },

    /**
     * Phi-4-mini's {@code functools[...]} calls ({@link PhiFunctoolsCodec}). Its template offers tools only through
     * a {@code tools} field of the system message (a JSON string it writes as {@code <|tool|>...<|/tool|>} after the
     * content), which {@link dev.toolcoach.trace.Message} does not carry; so the system prompts write that block at the
     * end of the content, which the template renders to the same text. Results go back in the tool role.
     */
    PHI("phi", PhiFunctoolsCodec.INSTANCE, true) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return "You are a helpful assistant with some tools. To call functions, reply with functools followed by a "
                    + "JSON list of the calls: functools[{\"name\": function name, \"arguments\": {argument name: value}}, "
                    + "...]. When you have the final answer, reply with it as plain text." + phiToolBlock(tools);
        }

        @Override
        public Optional<String> templateSystemPrompt() {
            return Optional.of(NATIVE_SYSTEM_PROMPT);
        }

        @Override
        public String templateSystemMessage(List<ToolSpec> tools) {
            return NATIVE_SYSTEM_PROMPT + phiToolBlock(tools);
        }

        @Override
        public String reminder() {
            return "Call functions with functools[{\"name\": ..., \"arguments\": {...}}] and nothing else, "
                    + "or reply with the answer as plain text.";
        }
    },

    /**
     * A code action (CodeAct, smolagents' CodeAgent): the reply is a Python program calling the tools as functions
     * ({@link CodeActCodec}); whoever runs the agent's tools must run the program (a sandboxed interpreter).
     */
    CODE_ACT("code-act", CodeActCodec.INSTANCE, false) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return """
                    Solve the user's task by writing Python code that calls these functions:
                    %s
                    Reply with <think>...</think> then a program in <code>...</code>, or, once you know it, the final \
                    answer in <answer>...</answer>. The program runs in a fresh interpreter: print what you need to see, \
                    or end with an expression whose value you need. A function that fails raises ToolError. What the \
                    program printed comes back in <tool_response>...</tool_response>.""".formatted(
                    tools.stream().map(ActionFormat::pythonSignature).collect(Collectors.joining("\n")));
        }

        @Override
        public String reminder() {
            return "Reply with <think>...</think> followed by either <code>python program</code> or <answer>...</answer>.";
        }
    };

    /** A native format's system message: the model's own template adds the tools and how to call them. */
    private static final String NATIVE_SYSTEM_PROMPT = "You are a helpful assistant that solves the user's task with"
            + " the tools offered. When you have the final answer, reply with it as plain text.";

    private final String formatName;
    private final boolean resultsInToolRole;
    private final ToolCallCodec codec;

    ActionFormat(String formatName, ToolCallCodec codec, boolean resultsInToolRole) {
        this.formatName = formatName;
        this.codec = codec;
        this.resultsInToolRole = resultsInToolRole;
    }

    /** The name users and configs choose this format by, e.g. {@code hermes}. */
    public String formatName() {
        return formatName;
    }

    /**
     * The format called {@code name} (as {@link #formatName()} gives it).
     *
     * @throws IllegalArgumentException naming the known formats when there is none of that name
     */
    public static ActionFormat named(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("unknown action format '" + name
                + "'; known: " + knownNames()));
    }

    /** The format called {@code name}, if this build implements one (a model family may name one it does not). */
    public static Optional<ActionFormat> find(String name) {
        return Arrays.stream(values()).filter(f -> f.formatName.equals(name)).findFirst();
    }

    /** Every format's name, comma-separated, for messages and help texts. */
    public static String knownNames() {
        return Arrays.stream(values()).map(ActionFormat::formatName).collect(Collectors.joining(", "));
    }

    /**
     * Whether tool results go back as the chat template's own tool messages (one per result, named by its
     * tool), rather than as one user-side message of {@code <tool_response>} blocks.
     */
    public boolean resultsInToolRole() {
        return resultsInToolRole;
    }

    /** How replies in this format are read and written. */
    public ToolCallCodec codec() {
        return codec;
    }

    /** The system prompt offering {@code tools}. */
    public abstract String systemPrompt(List<ToolSpec> tools);

    /**
     * For a model family's native format: the system prompt when the model's own chat template offers the tools
     * (it writes their schemas and how to call them), renders the calls and carries the results in its tool role.
     * Empty for a format the templates do not know, whose {@link #systemPrompt} lists the tools itself.
     */
    public Optional<String> templateSystemPrompt() {
        return Optional.empty();
    }

    /**
     * The system message content a native format starts with when the model's own template renders the
     * conversation: {@link #templateSystemPrompt()}, plus whatever of {@code tools} the template does not take from
     * its {@code tools} variable.
     *
     * @throws java.util.NoSuchElementException for a format the templates do not know
     */
    public String templateSystemMessage(List<ToolSpec> tools) {
        return templateSystemPrompt().orElseThrow();
    }

    /**
     * The tools as Phi-4-mini's template writes a system message's {@code tools} field, which its model card fills
     * with a JSON list of {@code {"name", "description", "parameters"}}; nothing when there are none (no field).
     */
    private static String phiToolBlock(List<ToolSpec> tools) {
        if (tools.isEmpty()) return "";
        return "<|tool|>" + TemplateJson.write(tools.stream().map(ToolSpec::toJson).toList()) + "<|/tool|>";
    }

    /** One line telling the model how a valid reply looks, appended to parse-error observations. */
    public abstract String reminder();

    /** {@code name(arg: type, optional?: type[]) - description}, types as the schema names them ("any" when it does not). */
    static String signature(ToolSpec tool) {
        List<String> required = tool.required();
        String args = tool.parameterNames().stream()
                .map(p -> p + (required.contains(p) ? "" : "?") + ": " + tool.parameter(p).map(ActionFormat::typeName).orElse("any"))
                .collect(Collectors.joining(", "));
        return tool.name() + "(" + args + ")" + (tool.description().isBlank() ? "" : " - " + tool.description());
    }

    /** {@code def name(arg: str, optional: int = None): """description"""}, Python type names for the schema's. */
    static String pythonSignature(ToolSpec tool) {
        List<String> required = tool.required();
        // Python wants the arguments without a default first
        String args = tool.parameterNames().stream().sorted(Comparator.comparing(p -> !required.contains(p)))
                .map(p -> p + ": " + tool.parameter(p).map(ActionFormat::pythonType).orElse("object")
                        + (required.contains(p) ? "" : " = None"))
                .collect(Collectors.joining(", "));
        return "def " + tool.name() + "(" + args + ")" + (tool.description().isBlank() ? "" : ": \"\"\"" + tool.description() + "\"\"\"");
    }

    private static String pythonType(JsonNode schema) {
        return switch (schema.path("type").asText("")) {
            case "string" -> "str";
            case "integer" -> "int";
            case "number" -> "float";
            case "boolean" -> "bool";
            case "array" -> "list[" + pythonType(schema.path("items")) + "]";
            case "object" -> "dict";
            default -> "object";
        };
    }

    private static String typeName(JsonNode schema) {
        String type = schema.path("type").asText("any");
        return type.equals("array") ? typeName(schema.path("items")) + "[]" : type;
    }

    /** One tool per line: its schema as Jackson writes it (Tool-N1), or as the templates' {@code tojson} writes the OpenAI function object. */
    private static String toolLines(List<ToolSpec> tools, boolean asTemplateFunction) {
        return tools.stream()
                .map(t -> asTemplateFunction ? functionJson(t) : t.toJson().toString())
                .collect(Collectors.joining("\n"));
    }

    /** {@code {"type": "function", "function": {"name", "description", "parameters"}}} as a template's {@code tojson} writes it. */
    private static String functionJson(ToolSpec tool) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("type", "function");
        function.put("function", tool.toJson());
        return TemplateJson.write(function);
    }
}
