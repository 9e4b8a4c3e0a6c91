package dev.toolcoach.model.lora;

import dev.toolcoach.model.io.HostTensor;
import java.util.Map;

/**
 * A LoRA adapter as plain host arrays keyed by PEFT tensor names
 * ({@code base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight}, A as [r, in], B as [out, r]):
 * what the learner checkpoints and ships to inference engines.
 */
public record AdapterWeights(LoraConfig config, int version, Map<String, HostTensor> tensors) {
    public AdapterWeights {
        tensors = Map.copyOf(tensors);
    }
}
