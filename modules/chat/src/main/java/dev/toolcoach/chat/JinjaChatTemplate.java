package dev.toolcoach.chat;

import dev.toolcoach.chat.jinja.JinjaTemplate;
import dev.toolcoach.chat.jinja.TemplateError;
import dev.toolcoach.trace.Message;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A model's own Jinja chat template, rendered exactly as Transformers' {@code apply_chat_template} renders it:
 * messages in OpenAI's layout, {@code tools} (None when there are none), {@code documents} (None),
 * {@code add_generation_prompt}, the tokenizer's special tokens ({@code bos_token}, {@code eos_token}, ...),
 * the request's extra kwargs, and Transformers' globals {@code raise_exception} and {@code strftime_now}.
 *
 * <p>A folder may name several templates (tokenizer_config.json's list form): as Transformers does, the
 * {@code tool_use} one renders requests that offer tools, {@code default} the others.
 */
public final class JinjaChatTemplate implements ChatTemplate {
    private final Map<String, JinjaTemplate> templates;
    private final Map<String, Object> specialTokens;
    private final Clock clock;

    /**
     * @param templates     Jinja sources by name; a single template is named {@code default}
     * @param specialTokens the tokenizer's special tokens as the template sees them ({@code bos_token}, ...)
     * @param clock         the clock {@code strftime_now} reads
     * @throws IllegalArgumentException when a template does not parse, naming it and the problem
     */
    public JinjaChatTemplate(Map<String, String> templates, Map<String, ?> specialTokens, Clock clock) {
        if (templates.isEmpty()) {
            throw new IllegalArgumentException("no chat template given");
        }
        Map<String, JinjaTemplate> parsed = new LinkedHashMap<>();
        templates.forEach((name, source) -> {
            try {
                parsed.put(name, JinjaTemplate.parse(source));
            } catch (TemplateError e) {
                throw new IllegalArgumentException("chat template" + (templates.size() > 1 ? " '" + name + "'" : "")
                        + " does not parse: " + e.getMessage());
            }
        });
        this.templates = Map.copyOf(parsed);
        this.specialTokens = new LinkedHashMap<>(specialTokens);
        this.clock = clock;
    }

    /** One template with the given BOS and EOS texts, on the system clock. */
    public JinjaChatTemplate(String template, String bosToken, String eosToken) {
        this(Map.of("default", template), tokens(bosToken, eosToken), Clock.systemDefaultZone());
    }

    private static Map<String, Object> tokens(String bos, String eos) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("bos_token", bos);
        t.put("eos_token", eos);
        return t;
    }

    /** The same templates reading another clock (tests fix it; the shared renderings use 26 Jul 2024). */
    public JinjaChatTemplate withClock(Clock other) {
        return new JinjaChatTemplate(this, other);
    }

    private JinjaChatTemplate(JinjaChatTemplate base, Clock clock) {
        this.templates = base.templates;
        this.specialTokens = base.specialTokens;
        this.clock = clock;
    }

    @Override
    public String render(TemplateInput request) {
        JinjaTemplate template = choose(!request.tools().isEmpty());
        Map<String, Object> vars = new HashMap<>();
        vars.putAll(JinjaTemplate.transformersGlobals(clock));
        vars.put("messages", request.messages().stream().map(JinjaChatTemplate::openAi).toList());
        vars.put("tools", request.tools().isEmpty() ? null : request.tools());
        vars.put("documents", null);
        vars.put("add_generation_prompt", request.addGenerationPrompt());
        vars.putAll(specialTokens);
        vars.putAll(request.templateKwargs());
        try {
            return template.render(vars);
        } catch (TemplateError e) {
            throw new IllegalArgumentException("chat template: " + e.getMessage());
        }
    }

    private JinjaTemplate choose(boolean tools) {
        if (tools && templates.containsKey("tool_use")) {
            return templates.get("tool_use");
        }
        JinjaTemplate t = templates.get("default");
        if (t == null) {
            throw new IllegalArgumentException("the model has chat templates " + templates.keySet().stream().sorted().toList()
                    + " but none named 'default'" + (tools ? "" : " for a request without tools"));
        }
        return t;
    }

    /** A message as apply_chat_template receives it: tool calls and the answered tool's name only when present. */
    static Map<String, Object> openAi(Message m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", m.role());
        out.put("content", m.content());
        if (!m.toolCalls().isEmpty()) {
            out.put("tool_calls", m.toolCalls().stream().map(c -> {
                Map<String, Object> function = new LinkedHashMap<>();
                function.put("name", c.name());
                function.put("arguments", c.arguments());
                Map<String, Object> call = new LinkedHashMap<>();
                call.put("type", "function");
                call.put("function", function);
                return call;
            }).toList());
        }
        if (m.name() != null) {
            out.put("name", m.name());
        }
        return out;
    }
}
