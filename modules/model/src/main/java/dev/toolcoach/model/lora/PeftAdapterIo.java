package dev.toolcoach.model.lora;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.trace.UntrustedJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** PEFT's on-disk adapter: adapter_config.json + adapter_model.safetensors, loadable by PEFT and vLLM. */
public final class PeftAdapterIo {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION_KEY = "toolcoach_version";

    private PeftAdapterIo() {
    }

    public static void save(Path dir, AdapterWeights w) throws IOException {
        Files.createDirectories(dir);
        ObjectNode c = JSON.createObjectNode();
        c.put("peft_type", "LORA");
        c.put("task_type", "CAUSAL_LM");
        c.put("r", w.config().r());
        c.put("lora_alpha", w.config().alpha());
        c.put("lora_dropout", w.config().dropout());
        c.put("bias", "none");
        c.put("fan_in_fan_out", false);
        c.put("inference_mode", true);
        var targets = c.putArray("target_modules");
        w.config().orderedTargets().forEach(targets::add);
        Files.writeString(dir.resolve("adapter_config.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(c));
        SafetensorsWriter.write(dir.resolve("adapter_model.safetensors"), new TreeMap<>(w.tensors()),
                Map.of("format", "pt", VERSION_KEY, Integer.toString(w.version())));
    }

    public static AdapterWeights load(Path dir) {
        Path configFile = dir.resolve("adapter_config.json");
        if (!Files.isRegularFile(configFile)) {
            throw new ModelLoadException(configFile, "file not found");
        }
        JsonNode c;
        try {
            c = JSON.readTree(configFile.toFile());
        } catch (IOException e) {
            throw new ModelLoadException(configFile, e instanceof JsonProcessingException j ? UntrustedJson.reason(j)
                    : "cannot be read (" + e.getMessage() + ")", e);
        }
        if (!c.path("peft_type").asText("LORA").equals("LORA")) {
            throw new ModelLoadException(configFile, "peft_type " + c.path("peft_type").asText() + " is not LORA");
        }
        Set<String> targets = new HashSet<>();
        c.path("target_modules").forEach(n -> targets.add(n.asText()));
        LoraConfig config;
        try {
            config = new LoraConfig(c.path("r").asInt(8), (float) c.path("lora_alpha").asDouble(8),
                    (float) c.path("lora_dropout").asDouble(0), targets);
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(configFile, e.getMessage(), e);
        }
        Path weights = dir.resolve("adapter_model.safetensors");
        Map<String, HostTensor> tensors = new LinkedHashMap<>(SafetensorsReader.read(weights));
        int version = SafetensorsReader.metadata(weights).containsKey(VERSION_KEY)
                ? Integer.parseInt(SafetensorsReader.metadata(weights).get(VERSION_KEY)) : 0;
        return new AdapterWeights(config, version, tensors);
    }
}
