package dev.toolcoach.model.lora;

import dev.toolcoach.model.config.ModelConfig;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A rank is refused before anything is allocated: past a matrix's smaller side, or past this machine's memory. */
class LoraConfigFitTest {

    private static final ModelConfig WIDE = new ModelConfig("qwen2", 65_536, 262_144, 512, 64, 8, 1_000, 512, 1e-6f, 10_000f, false, true);

    @Test
    void aRankPastASmallerSideOrPastTheMachinesMemoryIsOneLineNamingIt() {
        IllegalArgumentException side = assertThrows(IllegalArgumentException.class,
                () -> new LoraConfig(16_384, 32f, 0f, Set.of("k_proj")).checkFits(WIDE));
        assertEquals("LoRA rank 16384 exceeds k_proj's 65536 x 8192 matrix: at most 8192", side.getMessage());
        // 512 layers x 8,192 x (65,536 + 65,536): 550 billion parameters, 8 TiB to train, more than any machine here
        IllegalArgumentException memory = assertThrows(IllegalArgumentException.class,
                () -> new LoraConfig(8_192, 32f, 0f, Set.of("q_proj")).checkFits(WIDE));
        assertTrue(memory.getMessage().startsWith("a LoRA adapter of rank 8192 over 512 layers has 549,755,813,888 parameters: "
                + "training it needs about 8192.0 GiB, this machine has "), memory.getMessage());
        new LoraConfig(1, 2f, 0f, Set.of("q_proj")).checkFits(WIDE); // 67 million parameters: 1 GiB
    }
}
