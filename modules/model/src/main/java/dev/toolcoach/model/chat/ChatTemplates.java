package dev.toolcoach.model.chat;

import dev.toolcoach.model.PolicyModel;

/** The chat template a model should use: its folder's own template, else its family's built-in one (ChatML, Llama 3). */
public final class ChatTemplates {
    private ChatTemplates() {
    }

    public static ChatTemplate forModel(PolicyModel model, String bosToken, String eosToken) {
        return model.source().chatTemplate()
                .<ChatTemplate>map(t -> new JinjaChatTemplate(t, bosToken, eosToken))
                .orElseGet(() -> switch (model.config().family().defaultChatTemplate()) {
                    case CHATML -> new ChatMlTemplate();
                    case LLAMA3 -> new Llama3Template();
                    // no built-in renderer: these instruct folders always ship their template
                    case MISTRAL, PHI -> throw new IllegalArgumentException("model_type " + model.config().architecture()
                            + " has no built-in chat template: the model folder needs its own (tokenizer_config.json or chat_template.jinja)");
                });
    }
}
