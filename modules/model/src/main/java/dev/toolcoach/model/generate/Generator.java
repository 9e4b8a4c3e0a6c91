package dev.toolcoach.model.generate;

import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.TextTokenizer;
import java.util.concurrent.CompletableFuture;

/** Synchronous generation of one sequence on the calling thread (the engine's batch decoder with one row). */
public final class Generator {
    private Generator() {
    }

    public static Generation generate(Transformer model, TextTokenizer tokenizer, int[] prompt, SamplingParams params, LoraAdapter lora) {
        CompletableFuture<Generation> out = new CompletableFuture<>();
        try (BatchDecoder decoder = new BatchDecoder(model, tokenizer, model.manager())) {
            decoder.admit(prompt, params, lora, out);
            while (!out.isDone()) {
                decoder.step(lora);
            }
        }
        return out.join();
    }
}
