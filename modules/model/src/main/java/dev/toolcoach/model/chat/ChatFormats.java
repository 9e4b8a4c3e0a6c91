package dev.toolcoach.model.chat;

import dev.toolcoach.model.PolicyModel;

/** The chat format a model should use: its folder's own template, else the family's default. */
public final class ChatFormats {
    private ChatFormats() {
    }

    public static ChatFormat forModel(PolicyModel model, String bosToken, String eosToken) {
        return model.source().chatTemplate()
                .<ChatFormat>map(t -> new JinjaChatTemplate(t, bosToken, eosToken))
                .orElseGet(() -> model.config().architecture().equals("qwen2") ? new ChatMlFormat() : new Llama3Format());
    }
}
