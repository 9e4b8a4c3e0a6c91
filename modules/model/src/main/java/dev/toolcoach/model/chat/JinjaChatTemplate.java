package dev.toolcoach.model.chat;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
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
        this.jinjava = new Jinjava(JinjavaConfig.newBuilder().withFailOnUnknownTokens(false).build());
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

    @Override
    public String render(ChatRequest request) {
        Map<String, Object> context = new HashMap<>(request.templateKwargs());
        context.put("messages", request.messages().stream().map(m -> Map.of("role", m.role(), "content", m.content())).toList());
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
