package dev.toolcoach.coachnode;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.brain.run.ModelFolders;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.lora.AdapterMerge;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.PeftAdapterIo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code merge}: a base model with a trained LoRA adapter folded into its weights, written as a plain Hugging Face
 * folder that any runtime loads without PEFT (tokenizer, chat template and generation config copied from the base).
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Fold a LoRA adapter (e.g. a run's adapter/) into its base model and write a plain Hugging Face folder")
public final class MergeCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, description = "the base model's Hugging Face folder (a run's distilled/)")
    Path model;

    @Option(names = "--adapter", required = true, description = "the PEFT adapter folder (a run's adapter/)")
    Path adapter;

    @Option(names = "--out", required = true, description = "the folder to write the merged model to; must not exist")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            if (Files.exists(out)) throw new UsageException(out + " already exists");
            AdapterWeights weights = PeftAdapterIo.load(adapter);
            // a merge adds one product per matrix to the weights: the CPU does it, whatever device trained the adapter
            try (NDManager root = ComputeDevice.cpu().newManager(); PolicyModel base = ModelLoader.load(model, null, root)) {
                ModelFolders.withWeights(model, out, base.config(),
                        AdapterMerge.merge(base.config(), base.transformer().weights().toHf(base.config()), weights));
            }
            spec.commandLine().getOut().println("merged " + adapter + " (version " + weights.version() + ") into " + model + ": " + out);
            return 0;
        } catch (UsageException | IllegalArgumentException | ModelLoadException e) {
            spec.commandLine().getErr().println("merge: " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            spec.commandLine().getErr().println("merge: cannot write " + out + ": " + e.getMessage());
            return 3;
        }
    }
}
