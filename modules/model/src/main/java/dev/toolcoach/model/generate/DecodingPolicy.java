package dev.toolcoach.model.generate;

import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.Transformer;

/**
 * What a decoder runs for one step: a transformer (the base, or the base with the current adapter merged into its
 * weights), the adapter applied at every step when it is not merged (null: none), and the policy version every token
 * of the step records (0: the base model).
 */
public record DecodingPolicy(Transformer model, LoraAdapter adapter, int version) {

    /** The base model, or the base with {@code adapter} applied per step (its own version). */
    public static DecodingPolicy of(Transformer model, LoraAdapter adapter) {
        return new DecodingPolicy(model, adapter, adapter == null ? 0 : adapter.version());
    }
}
