package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A skill's JSON definition file and its SKILL.md card. Reading checks every field and fails with one line naming
 * the file and the field ({@link SkillFileException}); writing goes through a temporary file and a rename, so a
 * reader never sees half a definition.
 */
public final class SkillFile {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Definitions are small; a larger file is not one. */
    private static final long MAX_BYTES = 1 << 20;

    /** A definition file that cannot be used; the message is one line naming the file and the field. */
    public static final class SkillFileException extends IllegalArgumentException {
        SkillFileException(Path file, String problem) {
            super(file + ": " + problem);
        }
    }

    private SkillFile() {
    }

    public static SkillDefinition read(Path file) {
        String json;
        try {
            if (Files.size(file) > MAX_BYTES) throw new SkillFileException(file, "larger than " + MAX_BYTES + " bytes");
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SkillFileException(file, "cannot be read: " + e.getMessage());
        }
        JsonNode root;
        try {
            root = UntrustedJson.readTree(MAPPER, json, UntrustedJson.MAX_DEPTH);
        } catch (JsonProcessingException e) {
            throw new SkillFileException(file, "not JSON: " + UntrustedJson.reason(e));
        }
        try {
            return fromJson(root);
        } catch (FieldException e) {
            throw new SkillFileException(file, e.getMessage());
        }
    }

    public static void write(Path file, SkillDefinition definition) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary, MAPPER.writeValueAsString(toJson(definition)) + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static ObjectNode toJson(SkillDefinition d) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("name", d.name());
        root.put("description", d.description());
        root.put("suite", d.suite());
        root.put("status", d.status().name().toLowerCase(Locale.ROOT));
        root.set("parameters", d.parameters());
        ArrayNode steps = root.putArray("steps");
        for (SkillDefinition.Step step : d.steps()) {
            ObjectNode s = steps.addObject();
            s.put("tool", step.tool());
            ObjectNode arguments = s.putObject("arguments");
            step.arguments().forEach((name, source) -> {
                ObjectNode a = arguments.putObject(name);
                if (source instanceof ArgumentSource.Parameter p) {
                    a.put("param", p.name());
                    if (p.foundInStep() > 0) a.put("found_in_step", p.foundInStep());
                } else if (source instanceof ArgumentSource.FromStep f) {
                    a.put("from_step", f.step());
                    a.put("pointer", f.pointer());
                }
            });
        }
        SkillDefinition.Provenance p = d.provenance();
        ObjectNode provenance = root.putObject("provenance");
        provenance.put("source", p.source());
        ArrayNode trajectories = provenance.putArray("trajectories");
        p.trajectories().forEach(trajectories::add);
        provenance.put("support", p.support());
        provenance.put("novelty", p.novelty());
        provenance.put("min_length", p.minLength());
        provenance.put("min_support", p.minSupport());
        provenance.put("validated", p.validated());
        provenance.put("created_at", p.createdAt());
        return root;
    }

    /** A field that is missing or wrong, named by its path. */
    private static final class FieldException extends Exception {
        FieldException(String path, String problem) {
            super("field " + path + ": " + problem);
        }
    }

    private static SkillDefinition fromJson(JsonNode root) throws FieldException {
        if (!root.isObject()) throw new FieldException("(top level)", "must be an object");
        String name = text(root, "name", "name");
        String description = text(root, "description", "description");
        String suite = text(root, "suite", "suite");
        SkillDefinition.Status status;
        String statusText = text(root, "status", "status");
        try {
            status = SkillDefinition.Status.valueOf(statusText.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new FieldException("status", "must be \"pending\" or \"approved\", got \"" + statusText + "\"");
        }
        JsonNode parameters = root.get("parameters");
        if (parameters == null || !parameters.isObject()) throw new FieldException("parameters", "must be a JSON schema object");
        ToolSpec spec;
        try {
            spec = new ToolSpec(name, description, parameters);
        } catch (IllegalArgumentException e) {
            throw new FieldException("parameters", e.getMessage());
        }
        JsonNode stepsNode = root.get("steps");
        if (stepsNode == null || !stepsNode.isArray() || stepsNode.size() < 2) {
            throw new FieldException("steps", "must be an array of at least 2 steps");
        }
        List<SkillDefinition.Step> steps = new ArrayList<>();
        for (int k = 0; k < stepsNode.size(); k++) {
            String path = "steps[" + k + "]";
            JsonNode s = stepsNode.get(k);
            if (!s.isObject()) throw new FieldException(path, "must be an object");
            String tool = text(s, "tool", path + ".tool");
            JsonNode args = s.get("arguments");
            if (args == null || !args.isObject()) throw new FieldException(path + ".arguments", "must be an object");
            Map<String, ArgumentSource> arguments = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> a = it.next();
                arguments.put(a.getKey(), source(a.getValue(), path + ".arguments." + a.getKey(), k + 1, spec));
            }
            steps.add(new SkillDefinition.Step(tool, arguments));
        }
        JsonNode p = root.get("provenance");
        if (p == null || !p.isObject()) throw new FieldException("provenance", "must be an object");
        JsonNode trajectoriesNode = p.get("trajectories");
        if (trajectoriesNode == null || !trajectoriesNode.isArray()) throw new FieldException("provenance.trajectories", "must be an array of ids");
        List<String> trajectories = new ArrayList<>();
        for (JsonNode t : trajectoriesNode) {
            if (!t.isTextual()) throw new FieldException("provenance.trajectories", "must be an array of ids");
            trajectories.add(t.asText());
        }
        SkillDefinition.Provenance provenance = new SkillDefinition.Provenance(text(p, "source", "provenance.source"), trajectories,
                integer(p, "support", "provenance.support"), number(p, "novelty", "provenance.novelty"),
                integer(p, "min_length", "provenance.min_length"), integer(p, "min_support", "provenance.min_support"),
                integer(p, "validated", "provenance.validated"), text(p, "created_at", "provenance.created_at"));
        return new SkillDefinition(name, description, suite, parameters, steps, status, provenance);
    }

    private static ArgumentSource source(JsonNode node, String path, int step, ToolSpec spec) throws FieldException {
        if (!node.isObject()) throw new FieldException(path, "must be {\"param\": NAME} or {\"from_step\": N, \"pointer\": P}");
        if (node.has("param")) {
            String name = text(node, "param", path + ".param");
            if (!spec.parameterNames().contains(name)) throw new FieldException(path + ".param", "names no declared parameter: " + name);
            int foundIn = node.has("found_in_step") ? integer(node, "found_in_step", path + ".found_in_step") : 0;
            return new ArgumentSource.Parameter(name, foundIn);
        }
        int from = integer(node, "from_step", path + ".from_step");
        if (from < 1 || from >= step) throw new FieldException(path + ".from_step", from + " is not an earlier step than " + step);
        String pointer = text(node, "pointer", path + ".pointer");
        if (!pointer.isEmpty() && !pointer.startsWith("/")) throw new FieldException(path + ".pointer", "must be a JSON Pointer starting with /");
        return new ArgumentSource.FromStep(from, pointer);
    }

    private static String text(JsonNode node, String field, String path) throws FieldException {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) throw new FieldException(path, "must be a string");
        return v.asText();
    }

    private static int integer(JsonNode node, String field, String path) throws FieldException {
        JsonNode v = node.get(field);
        if (v == null || !v.canConvertToInt() || !v.isIntegralNumber()) throw new FieldException(path, "must be an integer");
        return v.asInt();
    }

    private static double number(JsonNode node, String field, String path) throws FieldException {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber()) throw new FieldException(path, "must be a number");
        return v.asDouble();
    }
}
