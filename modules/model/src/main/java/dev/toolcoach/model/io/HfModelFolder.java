package dev.toolcoach.model.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.model.ModelSource;
import dev.toolcoach.chat.JinjaChatTemplate;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.trace.UntrustedJson;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** A Hugging Face model folder: config.json, model.safetensors (or a sharded index), generation config, chat template. */
public final class HfModelFolder {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HfModelFolder() {
    }

    /** A folder read whole onto the heap, tensors in the {@link HfNames} layout. */
    public record Contents(ModelConfig config, Map<String, HostTensor> tensors, ModelSource source) {
    }

    /** A folder located and checked, its tensors (in the {@link HfNames} layout) not read yet. */
    public record Located(ModelConfig config, Map<String, StoredTensor> tensors, ModelSource source) {
    }

    /** Every tensor as f32 on the heap: for references, merges and small models; a model to run is loaded from {@link #locate}. */
    public static Contents read(Path dir) {
        Located located = locate(dir);
        Map<String, HostTensor> tensors = new LinkedHashMap<>();
        try (TensorReader reader = new TensorReader()) {
            located.tensors().forEach((name, t) -> tensors.put(name, reader.read(t)));
        }
        return new Contents(located.config(), tensors, located.source());
    }

    /**
     * The folder's config, generation defaults, chat template and where each weight is, every tensor checked by name,
     * dtype and shape and every file by its header and size; no weight is read except to compare a stored
     * {@code lm_head} with a tied embedding.
     */
    public static Located locate(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ModelLoadException(dir, "model folder not found");
        }
        Path configFile = dir.resolve("config.json");
        if (!Files.isRegularFile(configFile)) {
            throw new ModelLoadException(configFile, "file not found");
        }
        ModelConfig config = ModelConfig.readHfConfig(configFile);
        Map<String, StoredTensor> tensors = locateTensors(dir);
        Map<String, StoredTensor> checked = checkTensors(config, tensors, Files.isRegularFile(dir.resolve("model.safetensors"))
                ? dir.resolve("model.safetensors") : dir.resolve("model.safetensors.index.json"));
        return new Located(config, CheckpointLayout.toCanonical(config, checked), readSource(dir, configFile));
    }

    /**
     * The checkpoint's tensors exactly as the family's layout needs them: a missing, unexpected or misshapen tensor
     * is an error naming its file. Skipped by name only: RoPE {@code inv_freq} buffers (recomputed, as Transformers
     * does) and an {@code lm_head.weight} identical to the tied embedding.
     */
    private static Map<String, StoredTensor> checkTensors(ModelConfig config, Map<String, StoredTensor> tensors, Path weightsFile) {
        Map<String, long[]> expected = CheckpointLayout.shapes(config);
        Map<String, StoredTensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, StoredTensor> e : tensors.entrySet()) {
            String name = e.getKey();
            long[] shape = expected.get(name);
            if (shape == null) {
                if (name.endsWith(".rotary_emb.inv_freq")) {
                    continue;
                }
                if (name.equals(HfNames.LM_HEAD) && config.tiedEmbeddings() && tensors.containsKey(HfNames.EMBED)
                        && sameValues(e.getValue(), tensors.get(HfNames.EMBED))) {
                    continue;
                }
                throw new ModelLoadException(e.getValue().file(), "unexpected tensor '" + name + "' (a " + config.architecture()
                        + " model with this config.json has no such weight" + (name.equals(HfNames.LM_HEAD) ? ": tie_word_embeddings is true" : "") + ")");
            }
            if (!e.getValue().hasShape(shape)) {
                throw new ModelLoadException(e.getValue().file(), "tensor '" + name + "' has shape " + Arrays.toString(e.getValue().shape())
                        + " but the config needs " + Arrays.toString(shape));
            }
            out.put(name, e.getValue());
        }
        for (String name : expected.keySet()) {
            if (!out.containsKey(name)) {
                throw new ModelLoadException(weightsFile, "tensor '" + name + "' is missing");
            }
        }
        return out;
    }

    /** Whether two tensors hold the same values, compared block by block. */
    private static boolean sameValues(StoredTensor a, StoredTensor b) {
        if (!Arrays.equals(a.shape(), b.shape())) {
            return false;
        }
        try (TensorReader reader = new TensorReader()) {
            int rows = reader.rowsPerBlock(a);
            float[] x = new float[(int) (rows * a.cols())];
            float[] y = new float[x.length];
            for (long r = 0; r < a.rows(); r += rows) {
                int n = (int) Math.min(rows, a.rows() - r);
                reader.readRows(a, r, n, FloatBuffer.wrap(x));
                reader.readRows(b, r, n, FloatBuffer.wrap(y));
                if (!Arrays.equals(x, 0, (int) (n * a.cols()), y, 0, (int) (n * a.cols()))) {
                    return false;
                }
            }
            return true;
        }
    }

    private static Map<String, StoredTensor> locateTensors(Path dir) {
        Path single = dir.resolve("model.safetensors");
        if (Files.isRegularFile(single)) {
            return SafetensorsReader.locate(single);
        }
        Path index = dir.resolve("model.safetensors.index.json");
        if (!Files.isRegularFile(index)) {
            throw new ModelLoadException(single, "file not found (nor a sharded model.safetensors.index.json)");
        }
        JsonNode map = json(index).path("weight_map");
        if (!map.isObject() || map.isEmpty()) {
            throw new ModelLoadException(index, "no weight_map");
        }
        Set<String> shards = new TreeSet<>();
        map.elements().forEachRemaining(n -> shards.add(n.asText()));
        Map<String, StoredTensor> all = new LinkedHashMap<>();
        for (String shard : shards) {
            all.putAll(SafetensorsReader.locate(dir.resolve(shard)));
        }
        map.fieldNames().forEachRemaining(name -> {
            if (!all.containsKey(name)) {
                throw new ModelLoadException(dir.resolve(map.get(name).asText()), "tensor '" + name + "' listed in the index is missing");
            }
        });
        return all;
    }

    private static ModelSource readSource(Path dir, Path configFile) {
        JsonNode config = json(configFile);
        Path genFile = dir.resolve("generation_config.json");
        JsonNode gen = Files.isRegularFile(genFile) ? json(genFile) : JSON.createObjectNode();
        Set<Integer> eos = new HashSet<>();
        JsonNode eosNode = gen.has("eos_token_id") ? gen.get("eos_token_id") : config.path("eos_token_id");
        if (eosNode.isArray()) {
            eosNode.forEach(n -> eos.add(n.asInt()));
        } else if (eosNode.canConvertToInt()) {
            eos.add(eosNode.asInt());
        }
        int bos = (gen.has("bos_token_id") ? gen : config).path("bos_token_id").asInt(-1);
        return new ModelSource(eos, bos, chatTemplate(dir),
                gen.has("temperature") ? Optional.of((float) gen.get("temperature").asDouble()) : Optional.empty(),
                gen.has("top_p") ? Optional.of((float) gen.get("top_p").asDouble()) : Optional.empty(),
                gen.has("top_k") ? Optional.of(gen.get("top_k").asInt()) : Optional.empty());
    }

    /**
     * The folder's own chat template as Transformers finds it: {@code chat_template.jinja} (v5 layout, with named
     * extras in {@code additional_chat_templates/}), else tokenizer_config.json's {@code chat_template} (a string,
     * or a list of {@code {name, template}}); its special tokens come from tokenizer_config.json.
     */
    public static Optional<JinjaChatTemplate> chatTemplate(Path dir) {
        Path tokConfigFile = dir.resolve("tokenizer_config.json");
        JsonNode tokConfig = Files.isRegularFile(tokConfigFile) ? json(tokConfigFile) : JSON.createObjectNode();
        Map<String, String> templates = new LinkedHashMap<>();
        Path source = dir.resolve("chat_template.jinja");
        if (Files.isRegularFile(source)) {
            templates.put("default", readText(source));
            Path extras = dir.resolve("additional_chat_templates");
            if (Files.isDirectory(extras)) {
                try (var files = Files.list(extras)) {
                    for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jinja")).sorted().toList()) {
                        templates.put(f.getFileName().toString().replaceFirst("\\.jinja$", ""), readText(f));
                    }
                } catch (IOException e) {
                    throw new ModelLoadException(extras, "cannot list (" + e.getMessage() + ")", e);
                }
            }
        } else {
            source = tokConfigFile;
            JsonNode t = tokConfig.path("chat_template");
            if (t.isTextual()) {
                templates.put("default", t.asText());
            } else if (t.isArray()) {
                for (JsonNode named : t) {
                    if (!named.path("name").isTextual() || !named.path("template").isTextual()) {
                        throw new ModelLoadException(tokConfigFile, "chat_template: each entry needs a string 'name' and 'template'");
                    }
                    templates.put(named.get("name").asText(), named.get("template").asText());
                }
            } else if (!t.isMissingNode() && !t.isNull()) {
                throw new ModelLoadException(tokConfigFile, "chat_template: expected a string or a list of {name, template}");
            }
        }
        if (templates.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new JinjaChatTemplate(templates, specialTokens(tokConfig, tokConfigFile), Clock.systemDefaultZone()));
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(source, e.getMessage(), e);
        }
    }

    /**
     * The special tokens a template sees ({@code bos_token}, {@code eos_token}, ...) from a JSON file that names
     * them as tokenizer_config.json does.
     */
    public static Map<String, Object> specialTokens(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ModelLoadException(file, "file not found");
        }
        JsonNode tokens = json(file);
        if (!tokens.isObject()) {
            throw new ModelLoadException(file, "expected a JSON object of special tokens");
        }
        return specialTokens(tokens, file);
    }

    /** The special tokens a template sees, as Transformers' special_tokens_map holds them (unset ones absent). */
    private static Map<String, Object> specialTokens(JsonNode tokConfig, Path file) {
        Map<String, Object> tokens = new LinkedHashMap<>();
        for (String key : List.of("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")) {
            JsonNode v = tokConfig.path(key);
            if (v.isTextual()) {
                tokens.put(key, v.asText());
            } else if (v.path("content").isTextual()) { // a serialized AddedToken
                tokens.put(key, v.get("content").asText());
            } else if (!v.isMissingNode() && !v.isNull()) {
                throw new ModelLoadException(file, key + ": expected a string or an object with 'content'");
            }
        }
        JsonNode extra = tokConfig.path("additional_special_tokens");
        if (extra.isArray() && !extra.isEmpty()) {
            List<String> texts = new ArrayList<>();
            extra.forEach(n -> texts.add(n.isTextual() ? n.asText() : n.path("content").asText()));
            tokens.put("additional_special_tokens", texts);
        }
        return tokens;
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Writes config.json and model.safetensors (f32) in the family's own layout; the tokenizer files are the caller's
     * to copy.
     *
     * @param tensors in the {@link HfNames} layout (what {@link #read} returns)
     */
    public static void write(Path dir, ModelConfig config, Map<String, HostTensor> tensors) throws IOException {
        Files.createDirectories(dir);
        config.writeHfConfig(dir.resolve("config.json"));
        SafetensorsWriter.write(dir.resolve("model.safetensors"), CheckpointLayout.toCheckpoint(config, tensors), Map.of("format", "pt"));
    }

    private static JsonNode json(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new ModelLoadException(file, UntrustedJson.reason(e), e);
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot be read (" + e.getMessage() + ")", e);
        }
    }
}
