package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.trace.ParseError;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks decoded calls against the agent's tool specs: the tool exists, required arguments are
 * given, no undeclared ones (unless the schema allows additional properties), and JSON types match
 * (an integer is accepted where a number is expected, as BFCL does). What a strict reading checks calls against.
 */
public final class ArgumentValidator {

    private final Map<String, ToolSpec> specs = new LinkedHashMap<>();

    public ArgumentValidator(List<ToolSpec> tools) {
        for (ToolSpec t : tools) {
            if (specs.put(t.name(), t) != null) {
                throw new IllegalArgumentException("two tools are named '" + t.name() + "'");
            }
        }
    }

    void check(CallDecoder.RawCall call) throws ActionRejected {
        ToolSpec spec = specs.get(call.name());
        if (spec == null) {
            throw new ActionRejected(ParseError.Kind.UNKNOWN_TOOL, "there is no tool named '" + call.name()
                    + "'; available tools: " + String.join(", ", specs.keySet()));
        }
        for (String required : spec.required()) {
            if (!call.arguments().has(required)) {
                throw new ActionRejected(ParseError.Kind.MISSING_ARGUMENT, "tool '" + spec.name()
                        + "' needs the argument '" + required + "'");
            }
        }
        boolean openSchema = spec.parameters().path("additionalProperties").asBoolean(false);
        Iterator<Map.Entry<String, JsonNode>> args = call.arguments().fields();
        while (args.hasNext()) {
            Map.Entry<String, JsonNode> arg = args.next();
            var schema = spec.parameter(arg.getKey());
            if (schema.isEmpty()) {
                if (openSchema) continue;
                throw new ActionRejected(ParseError.Kind.UNEXPECTED_ARGUMENT, "tool '" + spec.name()
                        + "' has no argument '" + arg.getKey() + "' (its arguments: "
                        + String.join(", ", spec.parameterNames()) + ")");
            }
            String mismatch = typeMismatch(arg.getValue(), schema.get(), arg.getKey());
            if (mismatch != null) {
                throw new ActionRejected(ParseError.Kind.WRONG_TYPE, "tool '" + spec.name() + "': " + mismatch);
            }
        }
    }

    /** Why {@code value} does not fit {@code schema}, or null when it does. Depth is bounded by the decoder. */
    private static String typeMismatch(JsonNode value, JsonNode schema, String path) {
        JsonNode type = schema.get("type");
        if (type != null && !matchesAny(type, value)) {
            return "argument '" + path + "' must be " + (type.isArray() ? "one of " + type : type.asText())
                    + ", got " + CallDecoder.kind(value) + " " + preview(value);
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                String m = typeMismatch(value.get(i), schema.get("items"), path + "[" + i + "]");
                if (m != null) return m;
            }
        }
        if (value.isObject() && schema.path("properties").isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                JsonNode fieldSchema = schema.get("properties").get(f.getKey());
                if (fieldSchema == null) continue;
                String m = typeMismatch(f.getValue(), fieldSchema, path + "." + f.getKey());
                if (m != null) return m;
            }
        }
        return null;
    }

    private static boolean matchesAny(JsonNode type, JsonNode value) {
        if (!type.isArray()) return matches(type.asText(), value);
        for (JsonNode t : type) {
            if (matches(t.asText(), value)) return true;
        }
        return false;
    }

    private static boolean matches(String type, JsonNode value) {
        return switch (type) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            case "null" -> value.isNull();
            default -> true; // a schema type we do not know is not the model's fault
        };
    }

    private static String preview(JsonNode value) {
        String text = value.isContainerNode() ? "" : value.toString();
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
