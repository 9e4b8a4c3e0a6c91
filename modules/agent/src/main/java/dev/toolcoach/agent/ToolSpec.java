package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the agent knows about one tool: its name, what it does, and its parameters as a JSON schema
 * object ({@code {"type":"object","properties":{...},"required":[...]}}).
 *
 * <p>The schema goes verbatim into the system prompt and drives the action parser's argument
 * validation. It is copied on the way in and out, so a spec cannot change after it is made.
 */
public record ToolSpec(String name, String description, JsonNode parameters) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public ToolSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("tool name must not be blank");
        }
        description = description == null ? "" : description;
        parameters = checkedSchema(parameters == null ? MAPPER.createObjectNode() : parameters.deepCopy());
    }

    /** Builds a spec from a JSON schema written as text; a malformed schema is an IllegalArgumentException. */
    public static ToolSpec of(String name, String description, String parametersJson) {
        try {
            return new ToolSpec(name, description, MAPPER.readTree(parametersJson));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("parameters schema of tool '" + name + "' is not JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    @Override
    public JsonNode parameters() {
        return parameters.deepCopy();
    }

    /** Declared parameter names, in schema order. */
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        parameters.path("properties").fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The schema of one parameter, if declared. */
    public Optional<JsonNode> parameter(String parameterName) {
        JsonNode p = parameters.path("properties").get(parameterName);
        return p == null ? Optional.empty() : Optional.of(p.deepCopy());
    }

    /** Names of the parameters a call must give. */
    public List<String> required() {
        List<String> names = new ArrayList<>();
        parameters.path("required").forEach(n -> names.add(n.asText()));
        return names;
    }

    /** The OpenAI-style function object {@code {"name","description","parameters"}} used in prompts. */
    public ObjectNode toJson() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("name", name);
        node.put("description", description);
        node.set("parameters", parameters.deepCopy());
        return node;
    }

    /** The OpenAI tool schema {@code {"type": "function", "function": {...}}}, as chat templates take {@code tools}. */
    public ObjectNode functionSchema() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("type", "function");
        node.set("function", toJson());
        return node;
    }

    /** Its messages quote nothing of the schema or the tool's name: a dataset or a job's body may be untrusted. */
    private static JsonNode checkedSchema(JsonNode schema) {
        if (!schema.isObject()) {
            throw new IllegalArgumentException("a tool's parameters must be a JSON schema object, got " + schema.getNodeType());
        }
        JsonNode type = schema.get("type");
        if (type != null && !"object".equals(type.asText())) {
            throw new IllegalArgumentException("a tool's parameters must have type \"object\"");
        }
        JsonNode properties = schema.path("properties");
        if (!properties.isMissingNode() && !properties.isObject()) {
            throw new IllegalArgumentException("a tool's \"properties\" must be an object");
        }
        JsonNode required = schema.path("required");
        if (!required.isMissingNode()) {
            if (!required.isArray()) {
                throw new IllegalArgumentException("a tool's \"required\" must be an array of names");
            }
            for (int i = 0; i < required.size(); i++) {
                JsonNode r = required.get(i);
                if (!r.isTextual() || !properties.has(r.asText())) {
                    throw new IllegalArgumentException("a tool requires a name (required[" + i + "]) that is not among its properties");
                }
            }
        }
        return schema;
    }
}
