package dev.toolcoach.tools.annotated;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.model.output.structured.Description;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.tools.spi.TrajectoryId;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnnotatedToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    enum Priority { LOW, HIGH }

    record Attendee(@Param("attendee email") String email, @Param(value = "needs a seat", required = false) Boolean seated) {
    }

    /** Every supported parameter kind in one tool, returning what it received. */
    public static final class Calendar {
        @ToolMethod(name = "book_meeting", description = "Books a meeting.")
        public Map<String, Object> book(@Param("meeting title") String title,
                                        @Param("length in minutes") int minutes,
                                        @Param("priority") Priority priority,
                                        @Param("who attends") List<Attendee> attendees,
                                        @Param("free-form labels") Map<String, String> labels,
                                        @Param(value = "room, if any", required = false) String room,
                                        @Param("notes") Optional<String> notes,
                                        @TrajectoryId String trajectory) {
            return Map.of("title", title, "minutes", minutes, "priority", priority.name(),
                    "first_attendee", attendees.get(0).email(), "labels", labels,
                    "room", room == null ? "none" : room, "notes", notes.orElse("none"), "trajectory", trajectory);
        }
    }

    /** A tool class written for LangChain4j, used unchanged. */
    public static final class WeatherLc4j {
        @Tool("Returns the temperature in a city")
        public String temperature(@P("city name") String city, @P(value = "unit, C or F", required = false) String unit,
                                  @ToolMemoryId String memoryId) {
            return city + ":" + (unit == null ? "C" : unit) + ":" + memoryId;
        }

        @Tool(name = "wind_speed", value = {"Wind speed", "in km/h"})
        public double wind(@P("city name") String city) {
            return city.length() * 1.5;
        }
    }

    /** LangChain4j's own documentation style: plain classes of private fields as arguments, described by @Description. */
    public static final class BookingLc4j {
        public enum Seating { INDOOR, TERRACE }

        public static class Customer {
            @Description("the customer's full name")
            private String name;
            private int age;
            private List<String> allergies;
        }

        @Tool("Books a table for a customer")
        public String bookTable(@P("who books") Customer customer, @P("number of guests") int guests,
                                @P("where to sit") Seating seating, @P("the day, ISO format") String day) {
            return customer.name + " (" + customer.age + ", allergies " + customer.allergies + "): " + guests + " guests, "
                    + seating + ", " + day;
        }

        @Tool("Cancels every booking")
        public void cancelAll() {
        }
    }

    private static ToolResult run(ToolSuite suite, ToolCall call) throws Exception {
        try (ToolExecutor executor = new ToolExecutor(suite, ExecutorSettings.defaults())) {
            return executor.call("traj-7", call).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void ownAnnotationsProduceASchemaWithTypesDescriptionsAndRequiredArguments() {
        var spec = AnnotatedTools.scan(new Calendar()).get(0).spec();
        assertEquals("book_meeting", spec.name());
        assertEquals("Books a meeting.", spec.description());
        JsonNode p = spec.parameters();
        JsonNode props = p.get("properties");
        assertEquals("string", props.get("title").get("type").asText());
        assertEquals("meeting title", props.get("title").get("description").asText());
        assertEquals("integer", props.get("minutes").get("type").asText());
        assertEquals("[\"LOW\",\"HIGH\"]", props.get("priority").get("enum").toString());
        JsonNode attendee = props.get("attendees").get("items");
        assertEquals("object", attendee.get("type").asText());
        assertEquals("[\"email\"]", attendee.get("required").toString());
        assertEquals("boolean", attendee.get("properties").get("seated").get("type").asText());
        assertEquals("string", props.get("labels").get("additionalProperties").get("type").asText());
        assertEquals("string", props.get("notes").get("type").asText());
        assertTrue(!props.has("trajectory"), "the trajectory id is not a model argument");
        assertEquals("[\"title\",\"minutes\",\"priority\",\"attendees\",\"labels\"]", p.get("required").toString());
        assertEquals(false, p.get("additionalProperties").asBoolean());
    }

    @Test
    void jsonArgumentsAreConvertedToJavaTypes() throws Exception {
        ToolSuite suite = ToolSuite.builder("cal").addAnnotated(new Calendar()).build();
        ToolResult result = run(suite, new ToolCall("book_meeting", Map.of("title", "Sync", "minutes", 30,
                "priority", "HIGH", "attendees", List.of(Map.of("email", "a@x.org", "seated", true)),
                "labels", Map.of("team", "ml"))));
        assertEquals(ToolResult.Status.OK, result.status(), result.text());
        @SuppressWarnings("unchecked")
        Map<String, Object> echoed = (Map<String, Object>) result.structured();
        assertEquals("Sync", echoed.get("title"));
        assertEquals(30, echoed.get("minutes"));
        assertEquals("HIGH", echoed.get("priority"));
        assertEquals("a@x.org", echoed.get("first_attendee"));
        assertEquals(Map.of("team", "ml"), echoed.get("labels"));
        assertEquals("none", echoed.get("room"));
        assertEquals("none", echoed.get("notes"));
        assertEquals("traj-7", echoed.get("trajectory"));
    }

    @Test
    void badEnumValueAndBadNestedRecordAreInvalidArguments() throws Exception {
        ToolSuite suite = ToolSuite.builder("cal").addAnnotated(new Calendar()).build();
        ToolResult result = run(suite, new ToolCall("book_meeting", Map.of("title", "Sync", "minutes", 30,
                "priority", "URGENT", "attendees", List.of(Map.of("seated", "yes")), "labels", Map.of())));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, result.status());
        assertTrue(result.error().contains("priority: string \"URGENT\" is not one of [\"LOW\",\"HIGH\"]"), result.error());
        assertTrue(result.error().contains("attendees[0].seated: expected boolean, got string \"yes\""), result.error());
        assertTrue(result.error().contains("attendees[0].email: missing required argument"), result.error());
    }

    @Test
    void langChain4jToolsWorkUnchanged() throws Exception {
        ToolSuite suite = ToolSuite.builder("weather").addAnnotated(new WeatherLc4j()).build();
        assertEquals(List.of("temperature", "wind_speed"), suite.toolNames());
        var temperature = suite.tool("temperature").orElseThrow().spec();
        assertEquals("Returns the temperature in a city", temperature.description());
        assertEquals("[\"city\"]", temperature.parameters().get("required").toString());
        assertEquals("unit, C or F", temperature.parameters().get("properties").get("unit").get("description").asText());
        assertEquals("Wind speed\nin km/h", suite.tool("wind_speed").orElseThrow().spec().description());

        assertEquals("Oslo:C:traj-7", run(suite, new ToolCall("temperature", Map.of("city", "Oslo"))).text());
        ToolResult wind = run(suite, new ToolCall("wind_speed", Map.of("city", "Oslo")));
        assertEquals("6.0", wind.text());
        assertEquals(6.0, wind.structured());
    }

    @Test
    void langChain4jPlainArgumentClassesGetLangChain4jsOwnSchemaAndAreBoundByName() throws Exception {
        BookingLc4j tools = new BookingLc4j();
        ToolSuite suite = ToolSuite.builder("booking").addAnnotated(tools).build();
        // the independent reference: the schema LangChain4j itself makes of the same methods
        for (ToolSpecification reference : ToolSpecifications.toolSpecificationsFrom(tools)) {
            var ours = suite.tool(reference.name()).orElseThrow().spec();
            assertEquals(reference.description(), ours.description());
            JsonNode expected = JSON.valueToTree(reference.parameters() == null ? Map.of("type", "object")
                    : JsonSchemaElementUtils.toMap(reference.parameters()));
            assertSameShape(reference.name(), expected, ours.parameters());
        }

        Map<String, Object> customer = Map.of("name", "Ada Lovelace", "age", 36, "allergies", List.of("nuts"));
        ToolResult booked = run(suite, new ToolCall("bookTable", Map.of("customer", customer, "guests", 4,
                "seating", "TERRACE", "day", "2026-12-24")));
        assertEquals(ToolResult.Status.OK, booked.status(), booked.text());
        assertEquals("Ada Lovelace (36, allergies [nuts]): 4 guests, TERRACE, 2026-12-24", booked.text());
        ToolResult incomplete = run(suite, new ToolCall("bookTable", Map.of("customer", Map.of("name", "Ada"), "guests", 4,
                "seating", "TERRACE", "day", "2026-12-24")));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, incomplete.status());
        assertTrue(incomplete.error().contains("customer.age: missing required argument"), incomplete.error());
        assertEquals(ToolResult.Status.OK, run(suite, new ToolCall("cancelAll", Map.of())).status());
    }

    /** Same properties (in order), types, descriptions, enums and required names, down every nested object. */
    private static void assertSameShape(String where, JsonNode expected, JsonNode actual) {
        assertEquals(expected.path("type").asText(), actual.path("type").asText(), where + ": type");
        assertEquals(expected.path("description").asText(""), actual.path("description").asText(""), where + ": description");
        assertEquals(expected.path("enum"), actual.path("enum"), where + ": enum");
        if (expected.has("items")) assertSameShape(where + "[]", expected.get("items"), actual.get("items"));
        if (expected.path("type").asText().equals("object")) {
            List<String> names = new java.util.ArrayList<>();
            expected.path("properties").fieldNames().forEachRemaining(names::add);
            List<String> actualNames = new java.util.ArrayList<>();
            actual.path("properties").fieldNames().forEachRemaining(actualNames::add);
            assertEquals(names, actualNames, where + ": properties");
            assertEquals(new java.util.TreeSet<>(strings(expected.path("required"))), new java.util.TreeSet<>(strings(actual.path("required"))),
                    where + ": required");
            for (String name : names) assertSameShape(where + "." + name, expected.path("properties").get(name), actual.path("properties").get(name));
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new java.util.ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    public static final class NoTools {
        public String notATool() {
            return "";
        }
    }

    public static final class OptionalPrimitive {
        @ToolMethod(description = "bad")
        public int f(@Param(value = "x", required = false) int x) {
            return x;
        }
    }

    public static final class UnsupportedType {
        @ToolMethod(description = "bad")
        public String f(@Param("a thread") Thread thread) {
            return "";
        }
    }

    public static final class DuplicateNames {
        @ToolMethod(name = "same", description = "one")
        public String a() {
            return "";
        }

        @ToolMethod(name = "same", description = "two")
        public String b() {
            return "";
        }
    }

    @Test
    void toolClassesThatCannotWorkAreRejectedAtRegistrationNamingTheProblem() {
        var none = assertThrows(IllegalArgumentException.class, () -> AnnotatedTools.scan(new NoTools()));
        assertTrue(none.getMessage().contains("has no public method annotated"), none.getMessage());
        var optional = assertThrows(IllegalArgumentException.class, () -> AnnotatedTools.scan(new OptionalPrimitive()));
        assertTrue(optional.getMessage().contains("optional argument 'x' needs a boxed type"), optional.getMessage());
        var unsupported = assertThrows(IllegalArgumentException.class, () -> AnnotatedTools.scan(new UnsupportedType()));
        assertTrue(unsupported.getMessage().contains("java.lang.Thread is not supported"), unsupported.getMessage());
        var duplicate = assertThrows(IllegalArgumentException.class,
                () -> ToolSuite.builder("dup").addAnnotated(new DuplicateNames()));
        assertTrue(duplicate.getMessage().contains("already has a tool named 'same'"), duplicate.getMessage());
    }
}
