package dev.toolcoach.agent;

import java.util.List;
import java.util.stream.Collectors;

/**
 * How the model is asked to act, and how a reply without any tag is read.
 *
 * <p>Both formats accept both call layouts ({@code [..]} lists and one object per tag); they differ in
 * the instructions of the system prompt and in whether a plain-text reply counts as the answer.
 */
public enum ActionFormat {

    /** Nemotron Tool-N1: think, then a list of calls or an {@code <answer>}; plain text is no action. */
    TOOL_N1 {
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

    /** Hermes / Qwen: one {@code <tool_call>} object per call; a reply without calls is the answer. */
    HERMES {
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
        public String reminder() {
            return "Call a tool with <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call> or reply with the answer.";
        }
    };

    /** The system prompt offering {@code tools}. */
    public abstract String systemPrompt(List<ToolSpec> tools);

    /** One line telling the model how a valid reply looks, appended to parse-error observations. */
    public abstract String reminder();

    private static String toolLines(List<ToolSpec> tools, boolean wrapAsFunction) {
        return tools.stream()
                .map(t -> wrapAsFunction
                        ? "{\"type\": \"function\", \"function\": " + t.toJson() + "}"
                        : t.toJson().toString())
                .collect(Collectors.joining("\n"));
    }
}
