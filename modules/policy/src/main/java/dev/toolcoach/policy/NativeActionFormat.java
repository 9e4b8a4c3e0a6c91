package dev.toolcoach.policy;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The action format a local model speaks unless told otherwise: its family's native tool-call format when the
 * model came with its own chat template (the template is what taught it that format), else Tool-N1, which the
 * system prompt teaches. llama2.c checkpoints and the models ToolCoach builds from scratch have no template, so
 * they, and the main job's numbers, stay on Tool-N1.
 */
public final class NativeActionFormat {

    private NativeActionFormat() {
    }

    /** The default for a loaded model. */
    public static ActionFormat of(PolicyModel model) {
        return of(model.config().architecture(), model.source().chatTemplate().isPresent());
    }

    /** The default for a model on disk (an HF folder, or a llama2.c checkpoint file), read without its weights. */
    public static ActionFormat forModel(Path model) {
        if (!Files.isDirectory(model)) return ActionFormat.TOOL_N1;
        String modelType = ModelConfig.readHfConfig(model.resolve("config.json")).architecture();
        return of(modelType, HfModelFolder.chatTemplate(model).isPresent());
    }

    private static ActionFormat of(String modelType, boolean ownTemplate) {
        if (!ownTemplate) return ActionFormat.TOOL_N1;
        return familyFormat(modelType).map(ActionFormat::named).orElse(ActionFormat.TOOL_N1);
    }

    /**
     * The native tool-call format's name of a model family ({@code model_type}), where one is implemented.
     * This is the seam to the model-family registry, which names each family's format: until it is merged, the
     * families with a native codec are listed here. Mistral-7B-Instruct's template has no tool role and Phi-4-mini's
     * call format is not implemented: both fall back to Tool-N1.
     */
    static Optional<String> familyFormat(String modelType) {
        return switch (modelType) {
            case "qwen2", "qwen3" -> Optional.of(ActionFormat.HERMES.formatName());
            case "llama" -> Optional.of(ActionFormat.LLAMA3_JSON.formatName());
            default -> Optional.empty();
        };
    }
}
