package dev.toolcoach.tools.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks JSON arguments against a tool's JSON schema with networknt's json-schema-validator (draft 2020-12 unless the
 * schema names another; formats asserted), so a bad call is answered with every problem named, one line each with
 * its argument path, before any tool code runs.
 */
public final class SchemaValidator {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaValidator.class);
    private static final int SHOWN_VALUE_CHARS = 40;
    private static final int CACHED_SCHEMAS = 1024;
    // the validator is bound to Jackson 3 (the MCP SDK's); the project's schemas and arguments cross over as JSON text
    private static final JsonMapper JSON3 = JsonMapper.shared();
    // formats assert (2020-12 only annotates by default), so "2001-13-01" is refused as a date
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    // compiled schemas by their JSON text; empty where the schema cannot be compiled
    private static final Map<String, Optional<Schema>> COMPILED = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Optional<Schema>> eldest) {
                    return size() > CACHED_SCHEMAS;
                }
            });

    private SchemaValidator() {
    }

    /**
     * Every problem found, each naming the argument path; empty when the arguments are valid. An optional argument
     * given as null counts as left out. A schema the library cannot compile (an unknown dialect, an unreachable
     * $ref) checks nothing: the tool's own server still judges the call, and the reason is logged once.
     */
    public static List<String> validate(JsonNode schema, Map<String, Object> arguments) {
        Optional<Schema> compiled = COMPILED.computeIfAbsent(schema.toString(), SchemaValidator::compile);
        if (compiled.isEmpty()) return List.of();
        List<Error> errors = compiled.get().validate(JSON3.readTree(json(arguments)));
        Set<NodePath> reported = new HashSet<>();
        for (Error error : errors) reported.add(error.getEvaluationPath());
        List<String> problems = new ArrayList<>();
        for (Error error : errors) {
            if (!isInsideAnother(error, reported) && !isOptionalLeftOut(error, schema)) problems.add(problem(error, schema));
        }
        return problems;
    }

    private static Optional<Schema> compile(String schema) {
        try {
            return Optional.of(REGISTRY.getSchema(JSON3.readTree(schema)));
        } catch (SchemaException e) {
            LOG.warn("arguments are not checked against a tool schema the validator cannot compile ({}): {}",
                    e.getMessage(), schema);
            return Optional.empty();
        }
    }

    private static String json(Map<String, Object> arguments) {
        try {
            return ToolJson.mapper().writeValueAsString(arguments);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("arguments are not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** An error within a failed oneOf/anyOf/not alternative would only detail the one reported for the whole. */
    private static boolean isInsideAnother(Error error, Set<NodePath> reported) {
        for (NodePath outer = error.getEvaluationPath().getParent(); outer != null; outer = outer.getParent()) {
            if (reported.contains(outer)) return true;
        }
        return false;
    }

    /** A null for a property its object schema does not require: the model left the argument out. */
    private static boolean isOptionalLeftOut(Error error, JsonNode schema) {
        NodePath at = error.getInstanceLocation();
        if (error.getInstanceNode() == null || !error.getInstanceNode().isNull() || at.getNameCount() == 0
                || !(at.getElement(at.getNameCount() - 1) instanceof String name)) {
            return false;
        }
        // the object schema holding the property: the schema location before its last "properties/<name>"
        NodePath location = error.getSchemaLocation().getFragment();
        for (int i = location.getNameCount() - 2; i >= 0; i--) {
            if ("properties".equals(location.getElement(i)) && name.equals(location.getElement(i + 1))) {
                JsonNode object = node(schema, location, i);
                for (JsonNode required : object.path("required")) if (required.asText().equals(name)) return false;
                return object.path("properties").has(name); // not found (a location in another resource): kept
            }
        }
        return false;
    }

    /** The library's structured error in the one line the model reads. */
    private static String problem(Error error, JsonNode schema) {
        String path = path(error.getInstanceLocation());
        tools.jackson.databind.JsonNode value = error.getInstanceNode();
        tools.jackson.databind.JsonNode keywordValue = error.getSchemaNode();
        return switch (error.getKeyword()) {
            case "required" -> child(path, error.getProperty()) + ": missing required argument";
            case "additionalProperties" -> {
                NodePath location = error.getSchemaLocation().getFragment();
                List<String> names = new ArrayList<>();
                node(schema, location, location.getNameCount() - 1).path("properties").fieldNames().forEachRemaining(names::add);
                yield child(path, error.getProperty()) + ": unexpected argument (expected only " + names + ")";
            }
            case "type" -> {
                List<String> expected = keywordValue.isArray()
                        ? keywordValue.valueStream().map(tools.jackson.databind.JsonNode::asString).toList()
                        : List.of(keywordValue.asString());
                yield orArguments(path) + ": expected " + String.join(" or ", expected) + ", got " + describe(value);
            }
            case "enum" -> orArguments(path) + ": " + describe(value) + " is not one of " + keywordValue;
            case "format" -> orArguments(path) + ": " + describe(value) + switch (keywordValue.asString()) {
                case "date" -> " is not a date like 2001-05-14";
                case "date-time" -> " is not a date-time like 2001-05-14T16:39:00Z";
                default -> " is not a valid " + keywordValue.asString();
            };
            default -> orArguments(path) + ": " + error.getMessage();
        };
    }

    /** The schema node at the first {@code count} names of a schema location. */
    private static JsonNode node(JsonNode schema, NodePath location, int count) {
        JsonNode node = schema;
        for (int i = 0; i < count; i++) {
            node = location.getElement(i) instanceof Integer index ? node.path(index) : node.path(location.getName(i));
        }
        return node;
    }

    /** The argument path as the model wrote it: {@code points[1].y}. */
    private static String path(NodePath location) {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < location.getNameCount(); i++) {
            if (location.getElement(i) instanceof Integer index) path.append('[').append(index).append(']');
            else path.append(path.isEmpty() ? "" : ".").append(location.getName(i));
        }
        return path.toString();
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String orArguments(String path) {
        return path.isEmpty() ? "arguments" : path;
    }

    private static String describe(tools.jackson.databind.JsonNode value) {
        if (value.isNull()) return "null";
        String shown = value.toString();
        if (shown.length() > SHOWN_VALUE_CHARS) shown = shown.substring(0, SHOWN_VALUE_CHARS) + "...";
        return value.getNodeType().name().toLowerCase(Locale.ROOT) + " " + shown;
    }
}
