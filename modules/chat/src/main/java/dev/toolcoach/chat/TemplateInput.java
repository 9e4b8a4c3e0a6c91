package dev.toolcoach.chat;

import dev.toolcoach.trace.Message;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a chat template is rendered from, as Transformers' {@code apply_chat_template} takes it.
 *
 * @param tools               OpenAI function schemas ({@code {"type": "function", "function": {...}}}) as plain
 *                            JSON values (Map, List, String, Number, Boolean, null); empty when none are offered
 * @param templateKwargs      extra variables the template reads ({@code chat_template_kwargs}, e.g.
 *                            {@code enable_thinking} or {@code date_string})
 */
public record TemplateInput(List<Message> messages, List<Map<String, Object>> tools, boolean addGenerationPrompt,
                          Map<String, Object> templateKwargs) {
    public TemplateInput {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        // kept in order and null-tolerant: kwargs are JSON values, and None is one
        templateKwargs = templateKwargs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(templateKwargs));
    }

    public static TemplateInput of(List<Message> messages, boolean addGenerationPrompt) {
        return new TemplateInput(messages, List.of(), addGenerationPrompt, Map.of());
    }
}
