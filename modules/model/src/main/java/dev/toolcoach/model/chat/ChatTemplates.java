package dev.toolcoach.model.chat;

import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.ModelLoadException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The chat template a model should use: its folder's own template, else the family's default. */
public final class ChatTemplates {
    private ChatTemplates() {
    }

    public static ChatTemplate forModel(PolicyModel model) {
        return model.source().chatTemplate()
                .<ChatTemplate>map(t -> t)
                .orElseGet(() -> familyDefault(model.config().architecture()));
    }

    /** The same choice from a model folder alone (its config.json and template files), without loading weights. */
    public static ChatTemplate forFolder(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ModelLoadException(dir, "model folder not found");
        }
        return HfModelFolder.chatTemplate(dir).<ChatTemplate>map(t -> t)
                .orElseGet(() -> familyDefault(ModelConfig.readHfConfig(dir.resolve("config.json")).architecture()));
    }

    private static ChatTemplate familyDefault(String architecture) {
        return architecture.equals("qwen2") ? new ChatMlTemplate() : new Llama3Template();
    }
}
