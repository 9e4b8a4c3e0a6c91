package dev.toolcoach.model.io;

import dev.toolcoach.chat.ChatMlTemplate;
import dev.toolcoach.chat.ChatTemplate;
import dev.toolcoach.chat.Llama3Template;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.config.ModelFamily;
import java.nio.file.Files;
import java.nio.file.Path;

/** The chat template a model should use: its folder's own template, else its family's built-in one (ChatML, Llama 3). */
public final class ChatTemplates {
    private ChatTemplates() {
    }

    public static ChatTemplate forModel(PolicyModel model) {
        return model.source().chatTemplate()
                .<ChatTemplate>map(t -> t)
                .orElseGet(() -> familyDefault(model.config().family()));
    }

    /** The same choice from a model folder alone (its config.json and template files), without loading weights. */
    public static ChatTemplate forFolder(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ModelLoadException(dir, "model folder not found");
        }
        return HfModelFolder.chatTemplate(dir).<ChatTemplate>map(t -> t)
                .orElseGet(() -> familyDefault(ModelConfig.readHfConfig(dir.resolve("config.json")).family()));
    }

    private static ChatTemplate familyDefault(ModelFamily family) {
        return switch (family.defaultChatTemplate()) {
            case CHATML -> new ChatMlTemplate();
            case LLAMA3 -> new Llama3Template();
            // no built-in renderer: these instruct folders always ship their template
            case MISTRAL, PHI -> throw new IllegalArgumentException("model_type " + family.modelType()
                    + " has no built-in chat template: the model folder needs its own (tokenizer_config.json or chat_template.jinja)");
        };
    }
}
