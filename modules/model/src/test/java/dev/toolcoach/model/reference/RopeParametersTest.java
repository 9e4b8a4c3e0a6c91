package dev.toolcoach.model.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Inverse frequencies for small cases worked out by hand (the arithmetic is in each comment). */
class RopeParametersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A llama config with head_dim {@code dim} and the given rope fields (v4 or v5 spelling); a field repeated there
     * (max_position_embeddings) overrides the one before it, as Jackson keeps the last of duplicate keys.
     */
    private static RopeParameters rope(int dim, String ropeFields) throws IOException {
        String config = "{\"model_type\": \"llama\", \"hidden_size\": " + (4 * dim) + ", \"num_attention_heads\": 4,"
                + " \"num_hidden_layers\": 1, \"intermediate_size\": 8, \"vocab_size\": 8, \"max_position_embeddings\": 64, "
                + ropeFields + "}";
        return ReferenceConfig.parse(JSON.readTree(config), "config.json").rope();
    }

    @Test
    void defaultAndLinear() throws IOException {
        // theta 100, dim 4: 100^(-0/4) = 1, 100^(-2/4) = 0.1; linear factor 2 halves both
        assertArrayEquals(new double[] {1, 0.1}, rope(4, "\"rope_theta\": 100").invFreq(10), 1e-12);
        assertArrayEquals(new double[] {0.5, 0.05},
                rope(4, "\"rope_theta\": 100, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 2}").invFreq(10), 1e-12);
        // v5 spelling of the same
        assertArrayEquals(new double[] {0.5, 0.05},
                rope(4, "\"rope_parameters\": {\"rope_type\": \"linear\", \"rope_theta\": 100, \"factor\": 2}").invFreq(10), 1e-12);
        // theta absent: 10000 (the config classes' default), so the second frequency is 10000^(-1/2) = 0.01
        assertArrayEquals(new double[] {1, 0.01}, rope(4, "\"rope_scaling\": null").invFreq(10), 1e-12);
    }

    @Test
    void dynamicNtkGrowsTheBaseOnlyPastMaxPositions() throws IOException {
        RopeParameters r = rope(4, "\"rope_theta\": 100, \"max_position_embeddings\": 16,"
                + " \"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 2}");
        // seq 10 <= 16: base stays 100 -> (1, 0.1)
        assertArrayEquals(new double[] {1, 0.1}, r.invFreq(10), 1e-12);
        // seq 32: base = 100 * ((2*32/16) - (2-1))^(4/(4-2)) = 100 * 3^2 = 900 -> (1, 900^(-1/2) = 1/30)
        assertArrayEquals(new double[] {1, 1.0 / 30}, r.invFreq(32), 1e-12);
    }

    @Test
    void llama3KeepsHighFrequenciesDividesLowOnesAndBlendsTheBand() throws IOException {
        // theta 100, dim 6: inv = (1, 100^(-1/3) = 0.2154435, 100^(-2/3) = 0.0464159), wavelengths 2*pi/inv =
        // (6.283, 29.164, 135.367). original 32, low 1, high 4: keep below 32/4 = 8, divide by 8 above 32/1 = 32.
        // 29.164 is in the band: smooth = (32/29.164 - 1)/(4 - 1) = 0.0324149,
        // (1 - smooth) * 0.2154435 / 8 + smooth * 0.2154435 = 0.0330411; 0.0464159 / 8 = 0.0058020.
        String fields = "\"rope_theta\": 100, \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8,"
                + " \"low_freq_factor\": 1, \"high_freq_factor\": 4, \"original_max_position_embeddings\": 32}";
        RopeParameters r = rope(6, fields);
        assertArrayEquals(new double[] {1, 0.0330411, 0.0058020}, r.invFreq(10), 1e-7);
        assertEquals(1.0, r.attentionScaling());
    }

    @Test
    void yarnRampsBetweenTheCorrectionDims() throws IOException {
        // theta 10000, dim 8: inv = (1, 0.1, 0.01, 0.001). original 2048, factor 4, beta 32/1:
        // correction dim(r) = 8 * ln(2048 / (r * 2 * pi)) / (2 * ln 10000): r=32 -> 1.00800, r=1 -> 2.51315.
        // truncate (default): low = floor = 1, high = ceil = 3, ramp (i - 1)/2 clamped = (0, 0, 0.5, 1), so
        // extrapolation weight (1, 1, 0.5, 0): inv = (1, 0.1, 0.5*0.01 + 0.5*0.01/4 = 0.00625, 0.001/4 = 0.00025).
        String yarn = "\"rope_theta\": 10000, \"max_position_embeddings\": 8192, \"rope_scaling\": {\"type\": \"yarn\","
                + " \"factor\": 4, \"original_max_position_embeddings\": 2048";
        RopeParameters r = rope(8, yarn + "}");
        assertArrayEquals(new double[] {1, 0.1, 0.00625, 0.00025}, r.invFreq(10), 1e-12);
        // attention factor 0.1 * ln 4 + 1
        assertEquals(1.1386294361, r.attentionScaling(), 1e-9);
        // truncate false: ramp at i=2 is (2 - 1.00800)/(2.51315 - 1.00800) = 0.659070, so
        // inv[2] = 0.01 * (1 - 0.659070) + 0.0025 * 0.659070 = 0.00505697
        assertEquals(0.00505697, rope(8, yarn + ", \"truncate\": false}").invFreq(10)[2], 1e-8);
        // an explicit attention_factor wins
        assertEquals(0.5, rope(8, yarn + ", \"attention_factor\": 0.5}").attentionScaling(), 0);
    }

    @Test
    void longropePicksShortOrLongFactorsByLengthAndScalesAttention() throws IOException {
        // theta 100, dim 4: base (1, 0.1); short (1, 2) -> (1, 0.05) up to 16 tokens; long (3, 4) -> (1/3, 0.025) past it;
        // attention factor sqrt(1 + ln(64/16) / ln 16) = sqrt(1.5)
        String fields = "\"rope_theta\": 100, \"original_max_position_embeddings\": 16, \"rope_scaling\":"
                + " {\"rope_type\": \"longrope\", \"short_factor\": [1, 2], \"long_factor\": [3, 4]}";
        RopeParameters r = rope(4, fields);
        assertArrayEquals(new double[] {1, 0.05}, r.invFreq(16), 1e-12);
        assertArrayEquals(new double[] {1.0 / 3, 0.025}, r.invFreq(17), 1e-12);
        assertEquals(Math.sqrt(1.5), r.attentionScaling(), 1e-12);
    }

    @Test
    void badRopeFieldsAreOneLineErrorsNamingTheField() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> rope(4, "\"rope_scaling\": {\"rope_type\": \"su\", \"factor\": 2}"));
        assertTrue(unknown.getMessage().contains("rope_scaling.rope_type"), unknown.getMessage());
        IllegalArgumentException shortList = assertThrows(IllegalArgumentException.class,
                () -> rope(4, "\"rope_parameters\": {\"rope_type\": \"longrope\", \"short_factor\": [1], \"long_factor\": [1, 2]}"));
        assertTrue(shortList.getMessage().contains("rope_parameters.short_factor"), shortList.getMessage());
    }
}
