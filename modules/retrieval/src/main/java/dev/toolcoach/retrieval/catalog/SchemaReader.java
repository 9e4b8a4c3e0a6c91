package dev.toolcoach.retrieval.catalog;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tasks.datasets.DatasetIssue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads every function schema from the tool-calling datasets, whether or not the record's gold
 * calls are usable for training (the example loaders skip those, a catalog must not). Each schema
 * becomes a {@link ToolSpec} through {@link FunctionDoc}, which understands the JSON Schema layout
 * of BFCL and Glaive as well as ToolAlpaca's flat layout in the xLAM files.
 */
public final class SchemaReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** BFCL questions: one JSON object per line with a {@code function} list. */
    public SchemaSource bfcl(Path file) {
        List<ToolSpec> tools = new ArrayList<>();
        List<DatasetIssue> skipped = new ArrayList<>();
        List<String> lines = readLines(file);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) continue;
            String where = file.getFileName() + " line " + (i + 1);
            try {
                addAll(JSON.readTree(lines.get(i)).get("function"), where, tools, skipped);
            } catch (JsonProcessingException e) {
                skipped.add(new DatasetIssue(where, "not valid JSON: " + e.getOriginalMessage()));
            }
        }
        return new SchemaSource(file.getFileName().toString(), tools, skipped);
    }

    /** xLAM layout: one JSON array of {@code {query, tools: [...], answers}}. */
    public SchemaSource xlam(Path file) {
        return fromArray(file, item -> item.get("tools"));
    }

    /** Glaive's ShareGPT layout: one JSON array of {@code {conversations, tools: "<JSON list as a string>"}}. */
    public SchemaSource glaive(Path file) {
        return fromArray(file, item -> {
            JsonNode tools = item.get("tools");
            if (tools == null || !tools.isTextual()) return tools;
            if (tools.asText().isBlank()) return JSON.createArrayNode();
            try {
                return JSON.readTree(tools.asText());
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("tools string is not JSON: " + e.getOriginalMessage());
            }
        });
    }

    private static SchemaSource fromArray(Path file, Function<JsonNode, JsonNode> toolsOf) {
        JsonNode root = readJson(file);
        if (!root.isArray()) throw new DatasetException(file + " does not hold a JSON array");
        List<ToolSpec> tools = new ArrayList<>();
        List<DatasetIssue> skipped = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            String where = file.getFileName() + " item " + i;
            try {
                addAll(toolsOf.apply(root.get(i)), where, tools, skipped);
            } catch (IllegalArgumentException e) {
                skipped.add(new DatasetIssue(where, e.getMessage()));
            }
        }
        return new SchemaSource(file.getFileName().toString(), tools, skipped);
    }

    private static void addAll(JsonNode functions, String where, List<ToolSpec> tools, List<DatasetIssue> skipped) {
        if (functions == null || !functions.isArray()) {
            skipped.add(new DatasetIssue(where, "has no list of functions"));
            return;
        }
        for (int f = 0; f < functions.size(); f++) {
            try {
                tools.add(toolSpec(FunctionDoc.fromJson(functions.get(f))));
            } catch (IllegalArgumentException e) {
                skipped.add(new DatasetIssue(where + " function " + f, e.getMessage()));
            }
        }
    }

    /** The agent's view of a dataset function (parameters as a JSON Schema object). */
    public static ToolSpec toolSpec(FunctionDoc doc) {
        JsonNode schema = doc.toJsonSchema();
        return new ToolSpec(doc.name(), doc.description(), schema.get("parameters"));
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DatasetException("cannot read " + file + ": " + e, e);
        }
    }

    private static JsonNode readJson(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new DatasetException(file + " is not valid JSON at line " + (at == null ? "?" : at.getLineNr())
                    + ", column " + (at == null ? "?" : at.getColumnNr()) + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new DatasetException("cannot read " + file + ": " + e, e);
        }
    }
}
