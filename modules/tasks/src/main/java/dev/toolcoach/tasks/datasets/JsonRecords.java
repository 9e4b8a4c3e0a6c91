package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the records of a JSON Lines file or of a top-level JSON array one by one, so that one
 * malformed record is recorded with its line or index and the rest of the file still loads.
 */
final class JsonRecords {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Handles one record, given where it is (for messages) and its number (line number, or array
     * index); throws IllegalArgumentException with a reason for a malformed one.
     */
    @FunctionalInterface
    interface RecordReader {
        void read(String location, int number, JsonNode record);
    }

    private static final TypeReference<List<Object>> LIST_TYPE = new TypeReference<>() {
    };
    private static final TypeReference<LinkedHashMap<String, Object>> MAP_TYPE = new TypeReference<>() {
    };

    private JsonRecords() {
    }

    /** The text of a required string field, or IllegalArgumentException naming it. */
    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) throw new IllegalArgumentException("missing text field '" + field + "'");
        return v.asText();
    }

    /** A JSON array as plain Java values. */
    static List<Object> toList(JsonNode array) {
        return JSON.convertValue(array, LIST_TYPE);
    }

    /** A JSON object as plain Java values, in field order. */
    static Map<String, Object> toMap(JsonNode object) {
        return JSON.convertValue(object, MAP_TYPE);
    }

    private static DatasetException cannotRead(Path file, IOException e) {
        String why = e instanceof NoSuchFileException ? "no such file" : e.getMessage();
        return new DatasetException("cannot read " + file + ": " + why, e);
    }

    /** Each non-blank line of a JSON Lines file, located as {@code line N}. */
    static void forEachLine(Path file, RecordReader reader, List<DatasetIssue> malformed) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) continue;
                String location = file.getFileName() + " line " + number;
                try {
                    reader.read(location, number, JSON.readTree(line));
                } catch (JsonProcessingException e) {
                    malformed.add(new DatasetIssue(location, "not valid JSON: " + e.getOriginalMessage()));
                } catch (IllegalArgumentException e) {
                    malformed.add(new DatasetIssue(location, e.getMessage()));
                }
            }
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }

    /**
     * Each element of a file holding one JSON array, located as {@code item N (line L)}. A syntax
     * error ends the read (JSON cannot be resynchronised) and is recorded with its position.
     */
    static void forEachArrayItem(Path file, RecordReader reader, List<DatasetIssue> malformed) {
        try (JsonParser parser = JSON.getFactory().createParser(Files.newInputStream(file))) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new DatasetException(file + " does not hold a JSON array");
            }
            int index = 0;
            while (true) {
                JsonToken token;
                JsonLocation at = parser.getCurrentLocation();
                String location = file.getFileName() + " item " + index + " (line " + at.getLineNr() + ")";
                try {
                    token = parser.nextToken();
                    if (token == JsonToken.END_ARRAY || token == null) break;
                    JsonNode item = parser.readValueAsTree();
                    try {
                        reader.read(location, index, item);
                    } catch (IllegalArgumentException e) {
                        malformed.add(new DatasetIssue(location, e.getMessage()));
                    }
                } catch (JsonProcessingException e) {
                    JsonLocation where = e.getLocation();
                    malformed.add(new DatasetIssue(location, "JSON syntax error at line " + (where == null ? "?" : where.getLineNr())
                            + ", column " + (where == null ? "?" : where.getColumnNr()) + ": " + e.getOriginalMessage()
                            + "; the rest of the file cannot be read"));
                    break;
                }
                index++;
            }
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }
}
