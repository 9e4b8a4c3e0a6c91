package dev.toolcoach.tools.schema;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks JSON arguments against the schema subset {@link JsonSchemaGenerator} writes (type, enum,
 * format date/date-time, items, properties, required, additionalProperties), so a bad call is
 * answered with every problem named before any tool code runs.
 */
public final class SchemaValidator {

    private static final int SHOWN_VALUE_CHARS = 40;

    private SchemaValidator() {
    }

    /** Every problem found, each naming the argument path; empty when the arguments are valid. */
    public static List<String> validate(JsonNode schema, Map<String, Object> arguments) {
        List<String> problems = new ArrayList<>();
        checkObject(schema, arguments, "", problems);
        return problems;
    }

    private static void check(JsonNode schema, Object value, String path, List<String> problems) {
        String type = schema.path("type").asText("");
        if (!type.isEmpty() && !hasType(value, type)) {
            problems.add(path + ": expected " + type + ", got " + describe(value));
            return;
        }
        if (schema.has("enum") && !enumContains(schema.get("enum"), value)) {
            problems.add(path + ": " + describe(value) + " is not one of " + schema.get("enum"));
        }
        if (schema.has("format") && value instanceof String s) checkFormat(schema.get("format").asText(), s, path, problems);
        if (value instanceof List<?> list && schema.has("items")) {
            for (int i = 0; i < list.size(); i++) check(schema.get("items"), list.get(i), path + "[" + i + "]", problems);
        }
        if (value instanceof Map<?, ?> map && "object".equals(type)) checkObject(schema, map, path, problems);
    }

    private static void checkObject(JsonNode schema, Map<?, ?> object, String path, List<String> problems) {
        JsonNode properties = schema.path("properties");
        Set<String> present = new HashSet<>();
        object.forEach((key, value) -> {
            String name = String.valueOf(key);
            String childPath = path.isEmpty() ? name : path + "." + name;
            present.add(name);
            if (properties.has(name)) {
                // an optional argument given as null counts as left out
                if (value != null || isRequired(schema, name)) check(properties.get(name), value, childPath, problems);
            } else if (schema.path("additionalProperties").isObject()) {
                check(schema.get("additionalProperties"), value, childPath, problems);
            } else if (schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").asBoolean()) {
                problems.add(childPath + ": unexpected argument (expected only " + fieldNames(properties) + ")");
            }
        });
        for (JsonNode required : schema.path("required")) {
            if (!present.contains(required.asText())) {
                String name = required.asText();
                problems.add((path.isEmpty() ? name : path + "." + name) + ": missing required argument");
            }
        }
    }

    private static boolean isRequired(JsonNode schema, String name) {
        for (JsonNode required : schema.path("required")) if (required.asText().equals(name)) return true;
        return false;
    }

    private static boolean hasType(Object value, String type) {
        return switch (type) {
            case "string" -> value instanceof String;
            case "boolean" -> value instanceof Boolean;
            case "integer" -> isIntegral(value);
            case "number" -> value instanceof Number;
            case "array" -> value instanceof List<?>;
            case "object" -> value instanceof Map<?, ?>;
            case "null" -> value == null;
            default -> true;
        };
    }

    private static boolean isIntegral(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) return true;
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d);
        }
        return value instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0;
    }

    private static boolean enumContains(JsonNode allowed, Object value) {
        for (JsonNode a : allowed) if (a.isTextual() && a.asText().equals(value)) return true;
        return false;
    }

    private static void checkFormat(String format, String value, String path, List<String> problems) {
        try {
            switch (format) {
                case "date" -> LocalDate.parse(value);
                case "date-time" -> OffsetDateTime.parse(value);
                default -> { }
            }
        } catch (DateTimeParseException e) {
            String example = format.equals("date") ? "2001-05-14" : "2001-05-14T16:39:00Z";
            problems.add(path + ": " + describe(value) + " is not a " + format + " like " + example);
        }
    }

    private static String fieldNames(JsonNode properties) {
        List<String> names = new ArrayList<>();
        properties.fieldNames().forEachRemaining(names::add);
        return names.toString();
    }

    private static String describe(Object value) {
        if (value == null) return "null";
        String kind = value instanceof String ? "string" : value instanceof Boolean ? "boolean"
                : value instanceof Number ? "number" : value instanceof List<?> ? "array"
                : value instanceof Map<?, ?> ? "object" : value.getClass().getSimpleName();
        String shown = value instanceof String s ? '"' + s + '"' : String.valueOf(value);
        if (shown.length() > SHOWN_VALUE_CHARS) shown = shown.substring(0, SHOWN_VALUE_CHARS) + "...";
        return kind + " " + shown;
    }
}
