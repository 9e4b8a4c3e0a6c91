package dev.toolcoach.retrieval.catalog;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaReaderTest {

    @TempDir
    Path dir;

    private final SchemaReader reader = new SchemaReader();

    @Test
    void bfclLinesGiveEveryFunctionAndBadLinesAreCountedWithTheirNumber() throws IOException {
        Path file = write("BFCL_v3_multiple.json", """
                {"id": "m0", "function": [{"name": "a.b", "description": "first", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}, {"name": "c", "parameters": {"type": "dict", "properties": {}}}]}
                {"id": "m1", "function": [{"description": "nameless"}]
                {"id": "m2", "function": [{"description": "nameless"}, {"name": "d"}]}

                {"id": "m3"}
                """);

        SchemaSource source = reader.bfcl(file);

        assertEquals(List.of("a.b", "c", "d"), source.tools().stream().map(ToolSpec::name).toList());
        assertEquals("object", source.tools().get(0).parameters().get("type").asText());
        assertEquals(List.of("x"), source.tools().get(0).required());
        assertEquals(List.of("BFCL_v3_multiple.json line 2", "BFCL_v3_multiple.json line 3 function 0",
                "BFCL_v3_multiple.json line 5"), source.skipped().stream().map(DatasetIssue::location).toList());
        assertTrue(source.skipped().get(0).reason().startsWith("not valid JSON"), source.skipped().get(0).reason());
        assertEquals("has no list of functions", source.skipped().get(2).reason());
    }

    @Test
    void glaiveToolsAreAJsonStringAndXlamParametersAreFlat() throws IOException {
        Path glaive = write("glaive.json", """
                [{"conversations": [], "tools": "[{\\"name\\": \\"search_recipes\\", \\"description\\": \\"Find recipes\\", \\"parameters\\": {\\"type\\": \\"object\\", \\"properties\\": {\\"ingredients\\": {\\"type\\": \\"array\\"}}, \\"required\\": [\\"ingredients\\"]}}]"},
                 {"conversations": [], "tools": ""},
                 {"conversations": [], "tools": "[{\\"name\\": "}]
                """);
        Path xlam = write("xlam.json", """
                [{"query": "q", "tools": [{"name": "CountryInfo", "description": "Get country info",
                  "parameters": {"countryCode": {"type": "string", "description": "two letters", "required": true}}}], "answers": []}]
                """);

        SchemaSource g = reader.glaive(glaive);
        SchemaSource x = reader.xlam(xlam);

        assertEquals(List.of("search_recipes"), g.tools().stream().map(ToolSpec::name).toList());
        assertEquals(1, g.skipped().size());
        assertEquals("glaive.json item 2", g.skipped().get(0).location());
        assertTrue(g.skipped().get(0).reason().contains("tools string is not JSON"), g.skipped().get(0).reason());
        ToolSpec country = x.tools().get(0);
        assertEquals(List.of("countryCode"), country.required());
        assertEquals("two letters", country.parameter("countryCode").orElseThrow().get("description").asText());
    }

    @Test
    void aFileThatIsNotJsonIsAnErrorNamingFileAndLine() throws IOException {
        Path broken = write("broken.json", "[\n{\"tools\": [}\n]");
        DatasetException e = assertThrows(DatasetException.class, () -> reader.xlam(broken));
        assertTrue(e.getMessage().contains("broken.json") && e.getMessage().contains("line 2"), e.getMessage());
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }
}
