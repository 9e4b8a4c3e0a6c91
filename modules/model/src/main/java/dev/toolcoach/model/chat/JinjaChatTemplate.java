package dev.toolcoach.model.chat;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import dev.toolcoach.model.chat.jinja.PythonJson;
import java.util.LinkedHashMap;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import dev.toolcoach.trace.Message;
import java.util.HashMap;
import java.util.Map;

/** A model folder's own {@code chat_template} (Jinja, as HF transformers renders it) through Jinjava. */
public final class JinjaChatTemplate implements ChatTemplate {
    private final Jinjava jinjava;
    private final String template;
    private final String bosToken;
    private final String eosToken;

    public JinjaChatTemplate(String template, String bosToken, String eosToken) {
        this.template = template;
        this.bosToken = bosToken;
        this.eosToken = eosToken;
        // as Transformers configures jinja2: trim_blocks, lstrip_blocks, and jinja2's own whitespace control
        this.jinjava = new Jinjava(JinjavaConfig.newBuilder().withFailOnUnknownTokens(false)
                .withTrimBlocks(true).withLstripBlocks(true)
                .withLegacyOverrides(LegacyOverrides.Builder.from(LegacyOverrides.ALL).withWhitespaceRequiredWithinTokens(false).build())
                .build());
        jinjava.getGlobalContext().registerFilter(new ToJson());
        // HF templates call raise_exception(msg) to reject conversations they cannot render
        jinjava.getGlobalContext().registerFunction(new ELFunctionDefinition("", "raise_exception",
                JinjaChatTemplate.class, "raiseException", String.class));
    }

    public static String raiseException(String message) {
        throw new IllegalArgumentException("chat template rejected the conversation: " + message);
    }

    /** Jinjava wraps exceptions thrown inside functions; the innermost message is the template's own. */
    private static String rootMessage(TemplateError error) {
        Throwable t = error.getException();
        String message = error.getMessage();
        while (t != null) {
            if (t.getMessage() != null) {
                message = t.getMessage();
            }
            t = t.getCause();
        }
        return message;
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

    /** Transformers' tojson: json.dumps with ensure_ascii=False and an optional indent. */
    private static final class ToJson implements Filter {
        @Override
        public String getName() {
            return "tojson";
        }

        @Override
        public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
            return PythonJson.dumps(var, -1);
        }

        @Override
        public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
            Object indent = kwargs.getOrDefault("indent", args.length > 0 ? args[0] : null);
            return PythonJson.dumps(var, indent == null ? -1 : ((Number) indent).intValue());
        }
    }

    @Override
    public String render(ChatRequest request) {
        Map<String, Object> context = new HashMap<>(request.templateKwargs());
        context.put("messages", request.messages().stream().map(JinjaChatTemplate::openAi).toList());
        if (!request.tools().isEmpty()) {
            context.put("tools", request.tools());
        }
        context.put("add_generation_prompt", request.addGenerationPrompt());
        context.put("bos_token", bosToken);
        context.put("eos_token", eosToken);
        RenderResult result = jinjava.renderForResult(template, context);
        if (!result.getErrors().isEmpty()) {
            throw new IllegalArgumentException("chat template failed: " + rootMessage(result.getErrors().get(0)));
        }
        return result.getOutput();
    }
}
