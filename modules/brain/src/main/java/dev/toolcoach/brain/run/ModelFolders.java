package dev.toolcoach.brain.run;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;

/** Hugging Face model folders derived from others. */
public final class ModelFolders {

    private ModelFolders() {
    }

    /**
     * {@code source}'s model with other weights, as a new folder {@code target}: the weights and config are
     * written anew, every other file (tokenizer, generation config, chat template) is copied.
     */
    public static void withWeights(Path source, Path target, ModelConfig config, Map<String, HostTensor> tensors) throws IOException {
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".safetensors") && !name.equals("model.safetensors.index.json") && !name.equals("config.json")) {
                    Files.copy(f, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        HfModelFolder.write(target, config, tensors);
    }
}
