package dev.toolcoach.tools.schema;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.output.structured.Description;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SchemaValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Point(int x, int y) {
    }

    private static ObjectNode schema() {
        ObjectNode schema = JsonSchemaGenerator.objectSchema();
        JsonSchemaGenerator.addProperty(schema, "count", int.class, "how many", true);
        JsonSchemaGenerator.addProperty(schema, "day", LocalDate.class, "", false);
        JsonSchemaGenerator.addProperty(schema, "points", new TypeReference<List<Point>>() { }.getType(), "", false);
        JsonSchemaGenerator.addProperty(schema, "weights", new TypeReference<Map<String, Double>>() { }.getType(), "", false);
        return schema;
    }

    private static List<String> validate(Map<String, Object> arguments) {
        return SchemaValidator.validate(schema(), arguments);
    }

    @Test
    void validArgumentsHaveNoProblems() {
        assertEquals(List.of(), validate(Map.of("count", 3)));
        assertEquals(List.of(), validate(Map.of("count", 3.0, "day", "2001-05-14")), "an integral float is an integer");
        assertEquals(List.of(), validate(Map.of("count", new BigInteger("99999999999999999999"))));
        assertEquals(List.of(), validate(Map.of("count", 1, "points", List.of(Map.of("x", 1, "y", 2)),
                "weights", Map.of("a", 0.5, "b", 1))));
    }

    @Test
    void anOptionalArgumentGivenAsNullCountsAsLeftOut() {
        HashMap<String, Object> arguments = new HashMap<>();
        arguments.put("count", 1);
        arguments.put("day", null);
        assertEquals(List.of(), validate(arguments));
        arguments.put("count", null);
        assertEquals(List.of("count: expected integer, got null"), validate(arguments));
    }

    @Test
    void everyProblemIsReportedWithItsPath() {
        List<String> problems = validate(Map.of("count", 1.5, "day", "14/05/2001",
                "points", List.of(Map.of("x", 1), Map.of("x", 1, "y", "2")), "weights", Map.of("a", "heavy"), "color", "red"));
        assertEquals(Arrays.asList(
                "color: unexpected argument (expected only [count, day, points, weights])",
                "count: expected integer, got number 1.5",
                "day: string \"14/05/2001\" is not a date like 2001-05-14",
                "points[0].y: missing required argument",
                "points[1].y: expected integer, got string \"2\"",
                "weights.a: expected number, got string \"heavy\""), problems.stream().sorted().toList());
    }

    @Test
    void generatorCoversOptionalsArraysAndRejectsRecursiveRecords() {
        JsonNode optionalList = JsonSchemaGenerator.schemaOf(new TypeReference<Optional<String[]>>() { }.getType());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}", optionalList.toString());
        assertThrows(IllegalArgumentException.class, () -> JsonSchemaGenerator.schemaOf(Node.class));
        IllegalArgumentException badKey = assertThrows(IllegalArgumentException.class,
                () -> JsonSchemaGenerator.schemaOf(new TypeReference<Map<Integer, String>>() { }.getType()));
        assertEquals("map keys of tool arguments must be strings, not java.lang.Integer", badKey.getMessage());
    }

    record Node(String name, List<Node> children) {
    }

    record Page<T>(List<T> items, @Description("how many in all") int total) {
    }

    @Test
    void generatorResolvesGenericRecordsAndReadsDescriptionOnComponents() {
        JsonNode page = JsonSchemaGenerator.schemaOf(new TypeReference<Page<LocalDate>>() { }.getType());
        assertEquals("{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"format\":\"date\"}},"
                + "\"total\":{\"type\":\"integer\",\"description\":\"how many in all\"}},\"required\":[\"items\",\"total\"],"
                + "\"additionalProperties\":false}", page.toString());
    }

    @Test
    void keywordsOfAServersSchemaAreCheckedToo() throws Exception {
        // an MCP server's schema may say more than the generator writes: bounds, patterns, sizes, other formats, $refs
        JsonNode schema = JSON.readTree("""
                {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                 "properties": {
                   "n": {"type": "integer", "minimum": 1, "maximum": 10},
                   "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                   "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                   "mail": {"type": "string", "format": "email"},
                   "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                   "where": {"$ref": "#/definitions/Place"}},
                 "required": ["n", "where"],
                 "definitions": {"Place": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                                           "required": ["city"], "additionalProperties": false}}}
                """);
        HashMap<String, Object> where = new HashMap<>();
        where.put("city", "Oslo");
        where.put("zip", null);
        assertEquals(List.of(), SchemaValidator.validate(schema, Map.of("n", 10, "code", "OSL", "where", where)),
                "an optional null inside a referenced definition counts as left out");
        List<String> problems = SchemaValidator.validate(schema, Map.of("n", 11, "code", "osl", "tags", List.of(),
                "mail", "bob", "id", 1.5, "where", Map.of("town", "Oslo")));
        assertEquals(Arrays.asList(
                "code: does not match the regex pattern ^[A-Z]{3}$",
                "id: must be valid to one and only one schema, but 0 are valid",
                "mail: string \"bob\" is not a valid email",
                "n: must have a maximum value of 10",
                "tags: must have at least 1 items but found 0",
                "where.city: missing required argument",
                "where.town: unexpected argument (expected only [city, zip])"), problems.stream().sorted().toList());
    }

    @Test
    void aSchemaTheValidatorCannotCompileChecksNothing() throws Exception {
        JsonNode unknownDialect = JSON.readTree("{\"$schema\": \"https://example.com/own-dialect\", \"type\": \"object\"}");
        assertEquals(List.of(), SchemaValidator.validate(unknownDialect, Map.of("any", 1)));
    }
}
