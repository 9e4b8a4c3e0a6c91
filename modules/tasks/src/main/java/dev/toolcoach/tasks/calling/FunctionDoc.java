package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A function the model may call: its name, description, parameter schemas and required names.
 *
 * @param name        the function name
 * @param description what it does
 * @param properties  parameter name → its JSON schema node (type, items, properties, ...), in declared order
 * @param required    names of the required parameters
 */
public record FunctionDoc(String name, String description, Map<String, JsonNode> properties, List<String> required) {

    public FunctionDoc {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        required = List.copyOf(required);
    }

    /**
     * Reads a function description. Accepts the JSON Schema layout used by BFCL, Glaive and OpenAI
     * ({@code parameters: {type, properties, required: [..]}}) and ToolAlpaca's flat layout used in
     * the xLAM files ({@code parameters: {p: {type, description, required: true}}}).
     *
     * @throws IllegalArgumentException naming what is missing when the node is not a function description
     */
    public static FunctionDoc fromJson(JsonNode node) {
        if (node == null || !node.isObject()) throw new IllegalArgumentException("function description is not a JSON object");
        JsonNode nameNode = node.get("name");
        if (nameNode == null || !nameNode.isTextual() || nameNode.asText().isBlank()) {
            throw new IllegalArgumentException("function description has no name");
        }
        String name = nameNode.asText();
        JsonNode params = node.path("parameters");
        if (!params.isMissingNode() && !params.isNull() && !params.isObject()) {
            throw new IllegalArgumentException("function " + name + ": parameters is not an object");
        }
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        if (params.has("properties")) {
            JsonNode props = params.get("properties");
            if (!props.isObject()) throw new IllegalArgumentException("function " + name + ": properties is not an object");
            props.fields().forEachRemaining(e -> properties.put(e.getKey(), e.getValue()));
            for (JsonNode r : params.path("required")) required.add(r.asText());
        } else if (params.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isObject()) {
                    throw new IllegalArgumentException("function " + name + ": parameter " + e.getKey() + " is not an object");
                }
                properties.put(e.getKey(), e.getValue());
                if (e.getValue().path("required").asBoolean(false)) required.add(e.getKey());
            }
        }
        for (String r : required) {
            if (!properties.containsKey(r)) {
                throw new IllegalArgumentException("function " + name + ": required parameter " + r + " is not declared");
            }
        }
        return new FunctionDoc(name, node.path("description").asText(""), properties, required);
    }

    /** The declared type of a parameter (ANY when it declares none). */
    public ParamType typeOf(String param) {
        return ParamType.of(declaredType(param));
    }

    /** The declared item type of a list-shaped parameter, or null when it declares none. */
    public ParamType itemTypeOf(String param) {
        String itemType = declaredItemType(param);
        return itemType == null ? null : ParamType.of(itemType);
    }

    /** The type name a parameter declares, as written ({@code "HashMap"}), or null when it declares none. */
    public String declaredType(String param) {
        JsonNode schema = properties.get(param);
        return schema == null ? null : schema.path("type").asText(null);
    }

    /** The item type name a parameter declares, as written, or null when it declares none. */
    public String declaredItemType(String param) {
        JsonNode items = properties.containsKey(param) ? properties.get(param).path("items") : null;
        return items == null || !items.has("type") ? null : items.get("type").asText();
    }

    /** This function as a JSON Schema function description ({@code name, description, parameters}). */
    public ObjectNode toJsonSchema() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode().put("name", name).put("description", description);
        ObjectNode params = out.putObject("parameters").put("type", "object");
        ObjectNode props = params.putObject("properties");
        properties.forEach(props::set);
        required.forEach(params.putArray("required")::add);
        return out;
    }
}
