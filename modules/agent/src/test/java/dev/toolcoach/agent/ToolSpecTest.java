package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolSpecTest {

    private static final String SCHEMA = """
            {"type":"object","properties":{"a":{"type":"number","description":"first"},"b":{"type":"number"}},
             "required":["a"]}""";

    @Test
    void exposesParametersAndRequiredNames() {
        ToolSpec spec = ToolSpec.of("add", "Adds.", SCHEMA);
        assertEquals(List.of("a", "b"), spec.parameterNames());
        assertEquals(List.of("a"), spec.required());
        assertEquals("first", spec.parameter("a").orElseThrow().get("description").asText());
        assertTrue(spec.parameter("c").isEmpty());
        assertEquals("{\"name\":\"add\",\"description\":\"Adds.\",\"parameters\":" + spec.parameters() + "}",
                spec.toJson().toString());
    }

    @Test
    void cannotBeChangedThroughItsSchema() {
        ToolSpec spec = ToolSpec.of("add", "Adds.", SCHEMA);
        ((ObjectNode) spec.parameters()).remove("required");
        assertEquals(List.of("a"), spec.required());
    }

    @Test
    void rejectsSchemasThatCannotDescribeArguments() {
        assertThrows(IllegalArgumentException.class, () -> ToolSpec.of(" ", "", "{}"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolSpec.of("t", "", "{\"type\":\"string\"}"))
                .getMessage().contains("must have type \"object\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolSpec.of("t", "",
                "{\"properties\":{\"a\":{}},\"required\":[\"b\"]}")).getMessage().contains("(required[0]) that is not among"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolSpec.of("t", "", "{oops"))
                .getMessage().startsWith("parameters schema of tool 't' is not JSON"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ActionParser(ActionFormat.TOOL_N1,
                List.of(ToolSpec.of("t", "", "{}"), ToolSpec.of("t", "", "{}")))).getMessage().contains("two tools"));
    }

    @Test
    void travelsAsJson() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ToolSpec spec = ToolSpec.of("add", "Adds.", SCHEMA);
        assertEquals(spec, mapper.readValue(mapper.writeValueAsString(spec), ToolSpec.class));
    }

    @Test
    void systemPromptsListEveryToolSchema() {
        List<ToolSpec> tools = List.of(ToolSpec.of("add", "Adds.", SCHEMA), ToolSpec.of("now", "Time.", "{}"));
        String n1 = ActionFormat.TOOL_N1.systemPrompt(tools);
        assertTrue(n1.contains(tools.get(0).toJson().toString() + "\n" + tools.get(1).toJson().toString()), n1);
        assertTrue(n1.contains("<tool_call>[{\"name\""), n1);
        String hermes = ActionFormat.HERMES.systemPrompt(tools);
        assertTrue(hermes.contains("<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"add\", \"description\": "
                + "\"Adds.\", \"parameters\": {\"type\": \"object\""), hermes);
        assertTrue(hermes.contains("\n{\"type\": \"function\", \"function\": {\"name\": \"now\", \"description\": \"Time.\", "
                + "\"parameters\": {}}}\n</tools>"), hermes);
    }

    @Test
    void compactPromptListsOneSignatureLinePerToolAndParsesLikeToolN1() {
        List<ToolSpec> tools = List.of(ToolSpec.of("add", "Adds.", SCHEMA), ToolSpec.of("now", "", "{}"),
                ToolSpec.of("npv", "NPV.", """
                        {"type":"object","properties":{"flows":{"type":"array","items":{"type":"number"}}},"required":["flows"]}"""));
        String compact = ActionFormat.TOOL_N1_COMPACT.systemPrompt(tools);
        assertTrue(compact.contains("\nadd(a: number, b?: number) - Adds.\nnow()\nnpv(flows: number[]) - NPV.\n"), compact);
        assertTrue(compact.length() < ActionFormat.TOOL_N1.systemPrompt(tools).length() / 2, compact);
        String reply = "<think>t</think><tool_call>[{\"name\": \"add\", \"arguments\": {\"a\": 1}}]</tool_call>";
        assertEquals(new ActionParser(ActionFormat.TOOL_N1, tools).parse(reply),
                new ActionParser(ActionFormat.TOOL_N1_COMPACT, tools).parse(reply));
    }
}
