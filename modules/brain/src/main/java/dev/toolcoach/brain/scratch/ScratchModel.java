package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.TrainingMemory;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.nn.ModelWeights;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * A task-sized Qwen2 (ChatML) model written as a Hugging Face folder with random weights, which
 * {@code LocalPolicy.load} and {@code ModelLoader} open like any other.
 */
public record ScratchModel(Path dir, ModelConfig config, TaskVocabulary vocabulary) {

    /** The shape of the model; the vocabulary size comes from the tokenizer. */
    public record Shape(int dim, int hiddenDim, int layers, int heads, int kvHeads, int maxSeqLen) {
        /**
         * Checked where a shape enters (a recipe, a job request), before anything is allocated: sizes a model can have
         * (positive, whole heads, an even head size shared by whole kv groups), and weights that fit this machine's memory
         * with their gradients and optimiser state, which live outside the Java heap.
         *
         * @throws IllegalArgumentException naming what does not fit
         */
        public Shape {
            config(dim, hiddenDim, layers, heads, kvHeads, maxSeqLen, 1); // the fields are not set yet: the parameters are
            TrainingMemory.requireFits(String.format(Locale.ROOT, "a model of shape dim %d, hiddenDim %d, layers %d", dim,
                    hiddenDim, layers), (long) layers * (4L * dim * dim + 3L * dim * hiddenDim));
        }

        public ModelConfig config(int vocabSize) {
            return config(dim, hiddenDim, layers, heads, kvHeads, maxSeqLen, vocabSize);
        }

        private static ModelConfig config(int dim, int hiddenDim, int layers, int heads, int kvHeads, int maxSeqLen, int vocabSize) {
            // untied head: with tied embeddings a random model's greedy reply repeats its last input token
            return new ModelConfig("qwen2", dim, hiddenDim, layers, heads, kvHeads, vocabSize, maxSeqLen, 1e-6f, 10_000f,
                    false, true);
        }
    }

    public static ScratchModel write(Path dir, TaskVocabulary vocabulary, Shape shape, long seed) throws IOException {
        ModelConfig config = shape.config(vocabulary.size());
        Files.createDirectories(dir);
        HfModelFolder.write(dir, config, ModelWeights.randomHf(config, seed));
        vocabulary.writeTokenizer(dir.resolve("tokenizer.json"));
        writeGenerationConfig(dir, vocabulary);
        return new ScratchModel(dir, config, vocabulary);
    }

    /** The same model with other weights (e.g. after a warm-up) as a new folder. */
    public ScratchModel saveAs(Path target, Map<String, HostTensor> tensors) throws IOException {
        Files.createDirectories(target);
        HfModelFolder.write(target, config, tensors);
        vocabulary.writeTokenizer(target.resolve("tokenizer.json"));
        writeGenerationConfig(target, vocabulary);
        return new ScratchModel(target, config, vocabulary);
    }

    /** Stops on {@code <|im_end|>} (the end of a turn) and {@code <|endoftext|>}. */
    private static void writeGenerationConfig(Path dir, TaskVocabulary vocabulary) throws IOException {
        Files.writeString(dir.resolve("generation_config.json"), "{\"eos_token_id\": [" + vocabulary.imEndId() + ", "
                + vocabulary.endOfTextId() + "]}");
    }
}
