package dev.toolcoach.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolcoach.trace.UntrustedJson;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A conversation as {@code apply_chat_template} takes it, in a JSON file:
 * {@code {"messages": [...], "tools": [...], "add_generation_prompt": bool, "chat_template_kwargs": {...}}}.
 * Messages are in OpenAI's layout (assistant {@code tool_calls} with arguments as an object or a JSON string,
 * {@code name} on tool results). Bad input is a one-line error naming the file and the field.
 */
public final class ConversationFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConversationFile() {
    }

    public static TemplateInput read(Path file) {
        Object root;
        try {
            root = JSON.readValue(Files.readString(file), Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": " + UntrustedJson.reason(e));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(root, file.toString());
    }

    /** @param where names the source in errors (a file name) */
    public static TemplateInput parse(Object root, String where) {
        Map<String, Object> top = map(root, where, "the top level");
        for (String key : top.keySet()) {
            if (!List.of("messages", "tools", "add_generation_prompt", "chat_template_kwargs").contains(key)) {
                throw new IllegalArgumentException(where + ": unknown field '" + key
                        + "' (expected messages, tools, add_generation_prompt, chat_template_kwargs)");
            }
        }
        List<Object> rawMessages = list(top.get("messages"), where, "messages");
        if (rawMessages == null) {
            throw new IllegalArgumentException(where + ": messages: missing");
        }
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < rawMessages.size(); i++) {
            messages.add(message(rawMessages.get(i), where, "messages[" + i + "]"));
        }
        List<Map<String, Object>> tools = new ArrayList<>();
        List<Object> rawTools = list(top.get("tools"), where, "tools");
        if (rawTools != null) {
            for (int i = 0; i < rawTools.size(); i++) {
                tools.add(map(rawTools.get(i), where, "tools[" + i + "]"));
            }
        }
        Object agp = top.getOrDefault("add_generation_prompt", false);
        if (!(agp instanceof Boolean)) {
            throw new IllegalArgumentException(where + ": add_generation_prompt: expected true or false, got " + agp);
        }
        Object kwargs = top.get("chat_template_kwargs");
        return new TemplateInput(messages, tools, (Boolean) agp, kwargs == null ? Map.of() : map(kwargs, where, "chat_template_kwargs"));
    }

    private static Message message(Object raw, String where, String field) {
        Map<String, Object> m = map(raw, where, field);
        if (!(m.get("role") instanceof String role) || role.isEmpty()) {
            throw new IllegalArgumentException(where + ": " + field + ".role: missing or not a string");
        }
        Object content = m.get("content");
        if (content != null && !(content instanceof String)) {
            throw new IllegalArgumentException(where + ": " + field + ".content: expected a string or null");
        }
        Object name = m.get("name");
        if (name != null && !(name instanceof String)) {
            throw new IllegalArgumentException(where + ": " + field + ".name: expected a string");
        }
        List<ToolCall> calls = new ArrayList<>();
        List<Object> rawCalls = list(m.get("tool_calls"), where, field + ".tool_calls");
        if (rawCalls != null) {
            for (int i = 0; i < rawCalls.size(); i++) {
                calls.add(toolCall(rawCalls.get(i), where, field + ".tool_calls[" + i + "]"));
            }
        }
        return new Message(role, (String) content, calls, (String) name);
    }

    private static ToolCall toolCall(Object raw, String where, String field) {
        Map<String, Object> call = map(raw, where, field);
        Map<String, Object> function = call.containsKey("function") ? map(call.get("function"), where, field + ".function") : call;
        if (!(function.get("name") instanceof String name)) {
            throw new IllegalArgumentException(where + ": " + field + ".function.name: missing or not a string");
        }
        Object args = function.get("arguments");
        if (args instanceof String text) { // OpenAI sends arguments as a JSON string
            try {
                args = JSON.readValue(text, Object.class);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(where + ": " + field + ".function.arguments: not valid JSON (" + e.getOriginalMessage() + ")");
            }
        }
        return new ToolCall(name, args == null ? Map.of() : map(args, where, field + ".function.arguments"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object raw, String where, String field) {
        if (!(raw instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(where + ": " + field + ": expected a JSON object");
        }
        return new LinkedHashMap<>((Map<String, Object>) m);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object raw, String where, String field) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof List<?> l)) {
            throw new IllegalArgumentException(where + ": " + field + ": expected a JSON array");
        }
        return (List<Object>) l;
    }
}
