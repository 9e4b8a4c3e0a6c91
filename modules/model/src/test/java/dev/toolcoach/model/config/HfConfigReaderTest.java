package dev.toolcoach.model.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.model.io.ModelLoadException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config.json → ModelConfig: Transformers' config-class defaults per family, and a one-line refusal for what is not implemented. */
class HfConfigReaderTest {
    @TempDir
    Path tmp;

    /** The shape fields every test config has, plus {@code extra} (JSON members, comma-led). */
    private ModelConfig read(String modelType, String extra) throws IOException {
        return ModelConfig.readHfConfig(write(modelType, extra));
    }

    private Path write(String modelType, String extra) throws IOException {
        Path file = tmp.resolve("config.json");
        Files.writeString(file, "{\"model_type\": \"" + modelType + "\", \"hidden_size\": 64, \"intermediate_size\": 96,"
                + " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100" + extra + "}");
        return file;
    }

    private void refused(String modelType, String extra, String problem) throws IOException {
        Path file = write(modelType, extra);
        ModelLoadException e = assertThrows(ModelLoadException.class, () -> ModelConfig.readHfConfig(file));
        assertEquals(file + ": " + problem, e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void transformersDefaultsPerFamily() throws IOException {
        ModelConfig llama = read("llama", "");
        assertEquals(ModelFamily.LLAMA, llama.family());
        assertEquals(4, llama.nKvHeads(), "LlamaConfig: num_key_value_heads defaults to num_attention_heads");
        assertEquals(2048, llama.maxSeqLen());
        assertEquals(1e-6f, llama.normEps());
        assertEquals(10000.0, llama.rope().theta());
        assertFalse(llama.tiedEmbeddings());
        assertFalse(llama.qkvBias());
        assertEquals(16, llama.headDim());

        ModelConfig qwen2 = read("qwen2", ", \"num_key_value_heads\": 2");
        assertFalse(qwen2.tiedEmbeddings(), "Qwen2Config: tie_word_embeddings defaults to false");
        assertTrue(qwen2.qkvBias());
        assertFalse(qwen2.oBias());
        assertEquals(32768, qwen2.maxSeqLen());
        Path wide = tmp.resolve("wide.json");
        Files.writeString(wide, "{\"model_type\": \"qwen2\", \"hidden_size\": 64, \"intermediate_size\": 96, \"num_hidden_layers\": 1,"
                + " \"num_attention_heads\": 32, \"vocab_size\": 100}");
        assertEquals(32, ModelConfig.readHfConfig(wide).nKvHeads(), "Qwen2Config: num_key_value_heads defaults to 32, not to the head count");

        ModelConfig qwen3 = read("qwen3", ", \"num_key_value_heads\": 2");
        assertEquals(128, qwen3.headDim(), "Qwen3Config: head_dim defaults to 128");
        assertTrue(qwen3.qkNorm());
        assertFalse(qwen3.qkvBias());
        assertEquals(24, read("qwen3", ", \"num_key_value_heads\": 2, \"head_dim\": 24").headDim());
        assertEquals(96, read("qwen3", ", \"num_key_value_heads\": 2, \"head_dim\": 24").qDim());
        assertTrue(read("qwen3", ", \"num_key_value_heads\": 2, \"attention_bias\": true").oBias());

        ModelConfig mistral = read("mistral", ", \"num_key_value_heads\": 2");
        assertEquals(4096, mistral.slidingWindow(), "MistralConfig: sliding_window defaults to 4096");
        assertEquals(131072, mistral.maxSeqLen());
        assertEquals(0, read("mistral", ", \"num_key_value_heads\": 2, \"sliding_window\": null").slidingWindow());

        ModelConfig phi3 = read("phi3", "");
        assertEquals(1e-5f, phi3.normEps(), "Phi3Config: rms_norm_eps defaults to 1e-5");
        assertEquals(4096, phi3.maxSeqLen());
        assertEquals(0, phi3.slidingWindow());
        assertEquals(12, read("phi3", ", \"partial_rotary_factor\": 0.75").rotaryDim());
    }

    @Test
    void eachFamilyNamesItsNativeToolCallFormatAndChatTemplate() {
        assertEquals("hermes", ModelFamily.QWEN2.toolCallFormat());
        assertEquals("hermes", ModelFamily.QWEN3.toolCallFormat());
        assertEquals("llama3-json", ModelFamily.LLAMA.toolCallFormat());
        assertEquals("mistral", ModelFamily.MISTRAL.toolCallFormat());
        assertEquals("phi", ModelFamily.PHI3.toolCallFormat());
        assertEquals(ModelFamily.ChatTemplateKind.CHATML, ModelFamily.QWEN3.defaultChatTemplate());
        assertEquals(ModelFamily.ChatTemplateKind.LLAMA3, ModelFamily.LLAMA.defaultChatTemplate());
        assertEquals(ModelFamily.PHI3, ModelFamily.of("phi3"));
        assertThrows(IllegalArgumentException.class, () -> ModelFamily.of("gemma"));
    }

    @Test
    void ropeThetaFromRopeParameters() throws IOException {
        ModelConfig v5 = read("llama", ", \"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": 500000.0}");
        assertEquals(500000.0, v5.rope().theta(), "Transformers v5 keeps rope_theta in rope_parameters");
        ModelConfig v4 = read("llama", ", \"rope_theta\": 250000.0");
        assertEquals(250000.0, v4.rope().theta());
        ModelConfig scaled = read("llama", ", \"rope_parameters\": {\"rope_type\": \"llama3\", \"rope_theta\": 500000.0,"
                + " \"factor\": 32.0, \"low_freq_factor\": 1.0, \"high_freq_factor\": 4.0, \"original_max_position_embeddings\": 8192}");
        Rope.Llama3 l3 = assertInstanceOf(Rope.Llama3.class, scaled.rope());
        assertEquals(500000.0, l3.theta());
        assertEquals(8192, l3.originalMaxPositions());
    }

    @Test
    void everyRopeTypeFromRopeScaling() throws IOException {
        assertEquals(new Rope.Linear(10000, 2), read("llama", ", \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2.0}").rope());
        assertEquals(new Rope.Dynamic(10000, 2, 2048), read("llama", ", \"rope_scaling\": {\"rope_type\": \"dynamic\", \"factor\": 2.0}").rope());
        Rope.Yarn yarn = assertInstanceOf(Rope.Yarn.class, read("qwen2", ", \"num_key_value_heads\": 2, \"max_position_embeddings\": 32768, \"rope_theta\": 1000000.0,"
                + " \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 32768}").rope());
        assertEquals(4.0, yarn.factor());
        assertEquals(32.0, yarn.betaFast());
        assertEquals(1.0, yarn.betaSlow());
        assertEquals(0.1 * Math.log(4) + 1, yarn.attentionScaling(), 1e-12);
        Rope.LongRope lr = assertInstanceOf(Rope.LongRope.class, read("phi3", ", \"max_position_embeddings\": 131072,"
                + " \"original_max_position_embeddings\": 4096, \"partial_rotary_factor\": 0.75,"
                + " \"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1, 1, 1], \"long_factor\": [2, 2, 2, 2, 2, 2]}").rope());
        assertEquals(32.0, lr.factor(), "factor = max_position_embeddings / original_max_position_embeddings");
        assertEquals(Math.sqrt(1 + Math.log(32) / Math.log(4096)), lr.attentionScaling(), 1e-12);
        assertArrayEquals(new double[] {2, 2, 2, 2, 2, 2}, lr.longFactor());
        assertInstanceOf(Rope.LongRope.class, read("phi3", ", \"rope_scaling\": {\"type\": \"su\", \"short_factor\": [1, 1, 1, 1, 1, 1, 1, 1],"
                + " \"long_factor\": [1, 1, 1, 1, 1, 1, 1, 1]}").rope(), "Phi3Config reads the old type names su and yarn as longrope");
    }

    @Test
    void ropeInverseFrequencies() {
        double[] plain = new Rope.Default(10000).invFreq(8, 1);
        double[] linear = new Rope.Linear(10000, 4).invFreq(8, 1);
        for (int i = 0; i < 4; i++) {
            assertEquals(Math.pow(10000, -2.0 * i / 8), plain[i], 1e-6);
            assertEquals(plain[i] / 4, linear[i], 1e-6);
        }
        // dynamic NTK only changes the base past max_position_embeddings
        assertArrayEquals(new Rope.Dynamic(10000, 4, 64).invFreq(8, 10), new Rope.Dynamic(10000, 4, 64).invFreq(8, 64), 0);
        assertTrue(new Rope.Dynamic(10000, 4, 64).invFreq(8, 128)[3] < plain[3]);
        // longrope: short factors up to the original length, long ones beyond
        Rope.LongRope lr = new Rope.LongRope(10000, new double[] {1, 1, 1, 1}, new double[] {1, 2, 4, 8}, 4, 16, Double.NaN);
        assertArrayEquals(new Rope.Default(10000).invFreq(8, 1), lr.invFreq(8, 16), 1e-6);
        assertEquals(plain[3] / 8, lr.invFreq(8, 17)[3], 1e-9);
        // llama3: the highest frequency is kept, the lowest divided by the factor
        Rope.Llama3 l3 = new Rope.Llama3(500000, 8, 1, 4, 32);
        double[] base = new Rope.Linear(500000, 1).invFreq(16, 1);
        double[] f = l3.invFreq(16, 1);
        assertEquals(base[0], f[0], 1e-12);
        assertEquals(base[7] / 8, f[7], 1e-12);
    }

    @Test
    void refusesWhatIsNotImplemented() throws IOException {
        refused("gpt2", "", "unsupported model_type 'gpt2' (supported: llama, qwen2, qwen3, mistral, phi3)");
        refused("", "", "unsupported model_type '' (supported: llama, qwen2, qwen3, mistral, phi3)");
        refused("llama", ", \"rope_scaling\": {\"type\": \"su\", \"factor\": 2}",
                "rope_scaling.rope_type 'su' is not supported (supported: default, linear, dynamic, yarn, longrope, llama3)");
        refused("llama", ", \"rope_parameters\": {\"rope_type\": \"mrope\", \"rope_theta\": 10000}",
                "rope_parameters.rope_type 'mrope' is not supported (supported: default, linear, dynamic, yarn, longrope, llama3)");
        refused("qwen2", ", \"num_key_value_heads\": 2, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4, \"mrope_section\": [1, 2]}",
                "rope_scaling.mrope_section is not supported");
        refused("qwen2", ", \"use_sliding_window\": true, \"sliding_window\": 4096",
                "use_sliding_window=true is not supported (per-layer sliding windows after max_window_layers)");
        refused("qwen3", ", \"layer_types\": [\"full_attention\", \"sliding_attention\"]",
                "layer_types entry 'sliding_attention' is not supported (only full_attention)");
        refused("llama", ", \"partial_rotary_factor\": 0.5", "partial_rotary_factor 0.5 is not supported for model_type llama");
        refused("llama", ", \"mlp_bias\": true", "mlp_bias=true is not supported");
        refused("llama", ", \"hidden_act\": \"gelu\"", "hidden_act 'gelu' is not supported (only silu)");
        refused("llama", ", \"quantization_config\": {\"quant_method\": \"gptq\"}",
                "quantization_config is not supported (quantised checkpoints cannot be loaded)");
        refused("mistral", ", \"sliding_window\": 0", "sliding_window 0 is not a positive integer");
        refused("llama", ", \"rope_scaling\": \"linear\"", "rope_scaling is not a JSON object: \"linear\"");
    }

    @Test
    void refusesMissingFields() throws IOException {
        Path file = tmp.resolve("config.json");
        Files.writeString(file, "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100}");
        ModelLoadException e = assertThrows(ModelLoadException.class, () -> ModelConfig.readHfConfig(file));
        assertEquals(file + ": missing or non-integer field 'intermediate_size'", e.getMessage());
        refused("llama", ", \"rope_scaling\": {\"type\": \"linear\"}", "missing field 'rope_scaling.factor'");
        refused("llama", ", \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 1}",
                "missing field 'rope_scaling.high_freq_factor'");
        refused("phi3", ", \"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1, 1, 1, 1, 1]}",
                "missing field 'rope_scaling.long_factor'");
        refused("phi3", ", \"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1], \"long_factor\": [1, 1]}",
                "rope_scaling.short_factor has 2 entries but the rotary dimension 16 needs 8");
        refused("llama", ", \"num_key_value_heads\": 3", "heads 4 / kv heads 3 / head_dim 16 do not give an even head size shared by whole kv groups");
    }

    @Test
    void writtenConfigsReadBackAsTheSameConfig() throws IOException {
        Rope longRope = new Rope.LongRope(10000, new double[] {1, 1.5, 2}, new double[] {2, 3, 4}, 8, 32, Double.NaN);
        ModelConfig[] configs = {
            ModelConfig.llama(32, 48, 2, 4, 2, 64, 128).withRope(new Rope.Llama3(500000, 8, 1, 4, 32), 8),
            new ModelConfig("qwen2", 32, 48, 2, 4, 2, 64, 128, 1e-6f, 1_000_000f, true, true)
                    .withRope(new Rope.Yarn(1e6, 4, 32, Double.NaN, 32, 1, 0, 0, true), 8),
            new ModelConfig(ModelFamily.QWEN3, 32, 48, 2, 4, 2, 12, 64, 128, 1e-6f, new Rope.Default(1e6), 12, false, false, false, 0),
            new ModelConfig(ModelFamily.MISTRAL, 32, 48, 2, 4, 2, 8, 64, 128, 1e-5f, new Rope.Dynamic(10000, 2, 128), 8, false, false, false, 5),
            new ModelConfig(ModelFamily.PHI3, 32, 48, 2, 4, 4, 8, 64, 256, 1e-5f, longRope, 6, true, false, false, 7),
        };
        for (ModelConfig c : configs) {
            Path file = tmp.resolve(c.architecture() + ".json");
            c.writeHfConfig(file);
            assertEquals(c.toString(), ModelConfig.readHfConfig(file).toString(), c.architecture());
        }
    }
}
