package dev.toolcoach.model.chat;

import dev.toolcoach.model.PolicyModel;

/** The chat template a model should use: its folder's own template, else the family's default. */
public final class ChatTemplates {
    private ChatTemplates() {
    }

    public static ChatTemplate forModel(PolicyModel model) {
        return model.source().chatTemplate()
                .<ChatTemplate>map(t -> t)
                .orElseGet(() -> model.config().architecture().equals("qwen2") ? new ChatMlTemplate() : new Llama3Template());
    }
}
