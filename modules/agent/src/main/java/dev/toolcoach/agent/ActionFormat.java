package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The action formats a model can be asked to act in: each is a system prompt and the {@link ToolCallCodec}
 * that reads and writes its replies. A model family's native format is one more constant here.
 *
 * <p>The formats so far share the tagged codec, which accepts both call layouts ({@code [..]} lists and one
 * object per tag); they differ in the instructions of the system prompt and in whether a plain-text reply
 * counts as the answer.
 */
public enum ActionFormat {

    /** Nemotron Tool-N1: think, then a list of calls or an {@code <answer>}; plain text is no action. */
    TOOL_N1(TaggedActionCodec.TOOL_N1) {
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
    TOOL_N1_COMPACT(TaggedActionCodec.TOOL_N1) {
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

    /** Hermes / Qwen: one {@code <tool_call>} object per call; a reply without calls is the answer. */
    HERMES(TaggedActionCodec.HERMES) {
        @Override
        public String systemPrompt(List<ToolSpec> tools) {
            return """
                    You are a helpful assistant that solves the user's task with the tools below.

                    # Tools

                    You may call one or more functions to assist with the user query.

                    You are provided with function signatures within <tools></tools> XML tags:
                    <tools>
                    %s
                    </tools>

                    For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
                    <tool_call>
                    {"name": <function-name>, "arguments": <args-json-object>}
                    </tool_call>
                    When you have the final answer, reply with it as plain text or inside <answer></answer>.""".formatted(toolLines(tools, true));
        }

        @Override
        public Optional<String> templateSystemPrompt() {
            return Optional.of("You are a helpful assistant that solves the user's task with the tools offered."
                    + " When you have the final answer, reply with it as plain text.");
        }

        @Override
        public String reminder() {
            return "Call a tool with <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call> or reply with the answer.";
        }
    };

    private final ToolCallCodec codec;

    ActionFormat(ToolCallCodec codec) {
        this.codec = codec;
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

    private static String typeName(JsonNode schema) {
        String type = schema.path("type").asText("any");
        return type.equals("array") ? typeName(schema.path("items")) + "[]" : type;
    }

    private static String toolLines(List<ToolSpec> tools, boolean wrapAsFunction) {
        return tools.stream()
                .map(t -> wrapAsFunction
                        ? "{\"type\": \"function\", \"function\": " + t.toJson() + "}"
                        : t.toJson().toString())
                .collect(Collectors.joining("\n"));
    }
}
