package dev.toolcoach.policy;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.config.ModelFamily;
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
        return of(model.config().family(), model.source().chatTemplate().isPresent());
    }

    /** The default for a model on disk (an HF folder, or a llama2.c checkpoint file), read without its weights. */
    public static ActionFormat forModel(Path model) {
        if (!Files.isDirectory(model)) return ActionFormat.TOOL_N1;
        ModelFamily family = ModelConfig.readHfConfig(model.resolve("config.json")).family();
        return of(family, HfModelFolder.chatTemplate(model).isPresent());
    }

    private static ActionFormat of(ModelFamily family, boolean ownTemplate) {
        if (!ownTemplate) return ActionFormat.TOOL_N1;
        return familyFormat(family).orElse(ActionFormat.TOOL_N1);
    }

    /**
     * The family's native tool-call format as the model-family registry names it ({@link ModelFamily#toolCallFormat()}),
     * where this build has its codec: Mistral's ({@code [TOOL_CALLS]}; the shared Mistral-7B-Instruct template has no
     * tool role at all) has none, so that family acts in Tool-N1.
     */
    static Optional<ActionFormat> familyFormat(ModelFamily family) {
        return ActionFormat.find(family.toolCallFormat());
    }
}
