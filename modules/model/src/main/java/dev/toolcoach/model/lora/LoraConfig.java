package dev.toolcoach.model.lora;

import dev.toolcoach.model.TrainingMemory;
import dev.toolcoach.model.config.ModelConfig;

import java.util.List;
import java.util.Set;

/**
 * LoRA hyper-parameters, PEFT's meaning: delta W = (alpha / r) * B A.
 *
 * @param targets projection names among q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj
 */
public record LoraConfig(int r, float alpha, float dropout, Set<String> targets) {
    public static final List<String> ALL_TARGETS = List.of("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj");

    public LoraConfig {
        if (r <= 0) {
            throw new IllegalArgumentException("LoRA rank must be positive, got " + r);
        }
        if (!(dropout >= 0 && dropout < 1)) { // NaN too
            throw new IllegalArgumentException("LoRA dropout must be in [0, 1), got " + dropout);
        }
        if (!(alpha > 0) || Float.isInfinite(alpha)) {
            throw new IllegalArgumentException("LoRA alpha must be a positive finite number, got " + alpha);
        }
        if (targets.isEmpty() || !ALL_TARGETS.containsAll(targets)) {
            throw new IllegalArgumentException("LoRA targets " + targets + " must be a non-empty subset of " + ALL_TARGETS);
        }
        targets = Set.copyOf(targets);
    }

    /** ToolBrain's defaults: r=8, alpha=16, no dropout, q_proj and v_proj. */
    public static LoraConfig defaults() {
        return new LoraConfig(8, 16f, 0f, Set.of("q_proj", "v_proj"));
    }

    /**
     * Checks the rank fits the model: no larger than the smaller side of any matrix it adapts (a larger rank adds no
     * expressiveness, only memory: the adapter would outgrow the weights it adapts), and the adapter, trained, fits
     * this machine's memory ({@link TrainingMemory}: it lives outside the Java heap).
     *
     * @throws IllegalArgumentException naming the matrix the rank exceeds, or the memory it would need
     */
    public void checkFits(ModelConfig model) {
        long perLayer = 0;
        for (String target : orderedTargets()) {
            int[] io = LoraAdapter.inOut(model, target);
            if (r > Math.min(io[0], io[1])) {
                throw new IllegalArgumentException("LoRA rank " + r + " exceeds " + target + "'s " + io[0] + " x " + io[1]
                        + " matrix: at most " + Math.min(io[0], io[1]));
            }
            perLayer += (long) r * (io[0] + io[1]); // A (r x in) and B (out x r)
        }
        TrainingMemory.requireFits("a LoRA adapter of rank " + r + " over " + model.nLayers() + " layers", perLayer * model.nLayers());
    }

    public float scale() {
        return alpha / r;
    }

    /** Targets in canonical (ALL_TARGETS) order, so iteration is deterministic. */
    public List<String> orderedTargets() {
        return ALL_TARGETS.stream().filter(targets::contains).toList();
    }
}
