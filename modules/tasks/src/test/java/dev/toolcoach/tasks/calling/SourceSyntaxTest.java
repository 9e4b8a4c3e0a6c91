package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Java and JavaScript source text read as BFCL's type converters read it, and gold values written for them. */
class SourceSyntaxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void javaScalarsNeedTheirOwnSyntaxElseStayText() {
        assertEquals(true, JavaSyntax.read("true", "boolean", null));
        assertEquals("True", JavaSyntax.read("True", "boolean", null));
        assertEquals(-123L, JavaSyntax.read("-123", "integer", null));
        assertEquals("+1", JavaSyntax.read("+1", "integer", null));
        assertEquals(123L, JavaSyntax.read("123L", "long", null));
        assertEquals("123", JavaSyntax.read("123", "long", null));
        assertEquals(new BigInteger("9223372036854775808"), JavaSyntax.read("9223372036854775808L", "long", null));
        assertEquals(3.14, JavaSyntax.read("3.14f", "float", null));
        assertEquals(3e-3, JavaSyntax.read("3e-3F", "float", null));
        assertEquals("3.14", JavaSyntax.read("3.14", "float", null));
        assertEquals(3.14e2, JavaSyntax.read("3.14e2", "double", null));
        assertEquals("3.14f", JavaSyntax.read("3.14f", "double", null));
        // BFCL's char pattern ('.$') cannot match: a char is the text as written
        assertEquals("'a'", JavaSyntax.read("'a'", "char", null));
        assertEquals("new Foo()", JavaSyntax.read("new Foo()", "any", null));
    }

    @Test
    void javaCollectionsAsBfclParsesThem() {
        assertEquals(List.of(1L, 2L, 3L), JavaSyntax.read("new int[] { 1, 2, 3 }", "Array", "integer"));
        assertEquals(List.of(), JavaSyntax.read("new int[]{}", "Array", "integer"));
        assertEquals(List.of(1L, "2", 3L), JavaSyntax.read("new long[]{1L, 2, 3L}", "Array", "long"));
        assertEquals(List.of(1L, "abc", true), JavaSyntax.read("new Object[]{1, \"abc\", true}", "Array", null));
        assertEquals(List.of("a", "b"), JavaSyntax.read("new ArrayList<>(Arrays.asList(\"a\", \"b\"))", "ArrayList", "String"));
        assertEquals(List.of(1.0, 2.0), JavaSyntax.read("new ArrayList<Float>() {{ add(1.0f); add(2.0f); }}", "ArrayList", "float"));
        assertEquals(List.of(), JavaSyntax.read("new ArrayList<>()", "ArrayList", "long"));
        assertEquals("Arrays.asList(1)", JavaSyntax.read("Arrays.asList(1)", "ArrayList", "integer"));
        assertEquals(Map.of("key1", 1L, "key2", "value", "key3", true), JavaSyntax.read(
                "new HashMap<String, Object>() {{ put(\"key1\", 1); put(\"key2\", \"value\"); put(\"key3\", true); }}", "HashMap", null));
        assertEquals(Map.of("key", "value"), JavaSyntax.read("new HashMap<String, String>() { { put(\"key\", \"value\"); } }", "HashMap", null));
        assertEquals(Map.of(), JavaSyntax.read("new HashMap<>() {{ }}", "HashMap", null));
        assertEquals(Map.of(), JavaSyntax.read("new HashMap<>()", "HashMap", null));
        assertEquals("userProfile", JavaSyntax.read("userProfile", "HashMap", null));
    }

    /** (D): BFCL's own quirks, which count in its scores. */
    @Test
    void anArrayOfStringKeepsItsQuotesAndAnArrayListOfAnyKeepsText() {
        assertEquals(List.of("\"a\"", "\"b\""), JavaSyntax.read("new String[]{\"a\", \"b\"}", "Array", "String"));
        assertEquals(List.of("a", "b"), JavaSyntax.read("new String[]{a, b}", "Array", "String"));
        assertEquals(List.of("\"userID\"", "42", "true"),
                JavaSyntax.read("new ArrayList<>(Arrays.asList(\"userID\", 42, true))", "ArrayList", "any"));
    }

    @Test
    void javaScriptScalarsAndCollectionsAsBfclParsesThem() {
        assertEquals("abc", JsSyntax.read("'abc'", "String", null));
        assertEquals("abc", JsSyntax.read("abc", "String", null));
        assertEquals(123L, JsSyntax.read("123", "integer", null));
        assertEquals(3.14, JsSyntax.read("3.14", "float", null));
        assertEquals("1e5", JsSyntax.read("1e5", "float", null));
        assertEquals(123L, JsSyntax.read("123n", "Bigint", null));
        assertEquals(false, JsSyntax.read("false", "Boolean", null));
        assertEquals(List.of(1L, "two", true), JsSyntax.read("[1, 'two', true]", "array", null));
        assertEquals(List.of(4L, 5L, 6L), JsSyntax.read("new Array(4, 5, 6)", "array", "integer"));
        assertEquals(List.of("hello", "world"), JsSyntax.read("[\"hello\", 'world']", "array", "String"));
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L)), JsSyntax.read(" [ [ 1, 2 ], [ 3,   4]]", "array", "array"));
        assertEquals(Map.of("key1", 123L, "key2", "value", "key3", false),
                JsSyntax.read("{'key1': 123, 'key2': 'value', 'key3': false}", "dict", null));
        Object store = JsSyntax.read("{\"initialState\": initialStateObject, \"middlewares\": [\"loggerMiddleware\"]}", "dict", null);
        assertEquals(Map.of("initialState", "initialStateObject", "middlewares", List.of("loggerMiddleware")), store);
        // object values lose their quotes before they are read, and an object ends at its first '}'
        assertEquals(Map.of("a", true, "b", 42L), JsSyntax.read("{a: 'true', b: '42'}", "dict", null));
        assertEquals(Map.of("a", "{b: 1"), JsSyntax.read("{a: {b: 1}}", "dict", null));
    }

    /** (C): an array or object that does not parse is returned stripped, so a padded variable still matches. */
    @Test
    void javaScriptStripsWhitespaceBeforeItFallsBackToText() {
        assertEquals("configObject", JsSyntax.read("  configObject\n", "dict", null));
        assertEquals("myItemList", JsSyntax.read(" myItemList ", "array", "String"));
        assertEquals(" configObject ", JsSyntax.read(" configObject ", "any", null));
        assertEquals(" userProfile ", JavaSyntax.read(" userProfile ", "HashMap", null));
    }

    @Test
    void pythonNumbersAsIntAndFloatReadThem() {
        assertEquals(1000L, PyText.toInt(" 1_000 "));
        assertEquals(12L, PyText.toInt("\u0661\u0662"));
        assertNull(PyText.toInt("1__0"));
        assertNull(PyText.toInt("0x10"));
        assertTrue(Double.isNaN(PyText.toFloat("nan")));
        assertEquals(Double.NEGATIVE_INFINITY, PyText.toFloat("-Infinity"));
        assertEquals(0.5, PyText.toFloat(".5"));
        assertEquals(5.0, PyText.toFloat("5."));
        assertNull(PyText.toFloat("1d"));
        assertEquals("12", PyText.strip("\u00a012\u2007"));
    }

    @Test
    void goldValuesAreWrittenSoBfclReadsThemBack() {
        assertEquals("50L", JavaSyntax.write(50, "long", null));
        assertEquals("0.5f", JavaSyntax.write(0.5, "float", null));
        assertEquals("true", JavaSyntax.write(true, "boolean", null));
        assertEquals("mapController", JavaSyntax.write("mapController", "any", null));
        assertEquals("new ArrayList<>(Arrays.asList(101L, 202L))", JavaSyntax.write(List.of(101, 202), "ArrayList", "long"));
        assertEquals("new int[]{2, 7}", JavaSyntax.write(List.of(2, 7), "Array", "integer"));
        assertEquals("new HashMap<String, Object>() {{ put(\"limit\", 50); }}", JavaSyntax.write(Map.of("limit", 50), "HashMap", null));
        assertEquals(List.of(101L, 202L), JavaSyntax.read(JavaSyntax.write(List.of(101, 202), "ArrayList", "long"), "ArrayList", "long"));
        assertEquals("\"userInputField\"", JsSyntax.write("userInputField", "String", null));
        assertEquals("0.000010", JsSyntax.write(1e-5, "float", null));
        assertEquals("[60, 30]", JsSyntax.write(List.of(60, 30), "array", "float"));
        assertEquals("{\"method\": \"GET\"}", JsSyntax.write(Map.of("method", "GET"), "dict", null));
        assertEquals("42n", JsSyntax.write(42, "Bigint", null));
    }

    @Test
    void typesBfclCannotConvertAreNamed() {
        assertEquals(Optional.empty(), SourceLanguage.JAVA.unconvertible("ArrayList", "long"));
        assertEquals(Optional.of("BFCL does not convert the Java type 'Set'"), SourceLanguage.JAVA.unconvertible("Set", null));
        assertEquals(Optional.of("BFCL's Java converter does not take type 'dict'"), SourceLanguage.JAVA.unconvertible("dict", null));
        assertEquals(Optional.of("the Array declares no item type"), SourceLanguage.JAVA.unconvertible("Array", null));
        assertEquals(Optional.of("BFCL's JavaScript converter does not take type 'HashMap'"),
                SourceLanguage.JAVASCRIPT.unconvertible("array", "HashMap"));
        assertEquals(Optional.empty(), SourceLanguage.PYTHON.unconvertible("HashMap", null));
    }

    @Test
    void functionsAreOfferedWithEveryParameterAsSourceText() throws Exception {
        FunctionDoc doc = FunctionDoc.fromJson(JSON.readTree("""
                {"name": "f", "description": "Does f.", "parameters": {"type": "dict", "properties": {
                  "ids": {"type": "ArrayList", "description": "Ids.", "items": {"type": "long"}},
                  "o": {"type": "any", "description": "An object."}}, "required": ["ids"]}}"""));
        FunctionDoc java = SourceLanguage.JAVA.forPrompt(doc);
        assertEquals("Does f. Note that the provided function is in Java 8 SDK syntax.", java.description());
        assertEquals(JSON.readTree("""
                {"type": "string", "description": "Ids. This is Java ArrayList type parameter in string representation. \
                The list elements are of type long; they are not in string representation."}"""), java.properties().get("ids"));
        assertEquals("An object. This parameter can be of any type of Java object in string representation.",
                java.properties().get("o").get("description").asText());
        assertEquals(List.of("ids"), java.required());

        FunctionDoc js = SourceLanguage.JAVASCRIPT.forPrompt(FunctionDoc.fromJson(JSON.readTree("""
                {"name": "g", "description": "Does g.", "parameters": {"type": "dict", "properties": {
                  "chart": {"type": "dict", "description": "A chart.", "properties": {"nm": {"type": "String", "description": "Name\u00e9"}}}},
                  "required": ["chart"]}}""")));
        assertEquals("A chart. This is JavaScript dict type parameter in string representation. The dictionary entries have "
                + "the following schema; they are not in string representation. {\"nm\": {\"type\": \"String\", \"description\": \"Name\\u00e9\"}}",
                js.properties().get("chart").get("description").asText());
        assertEquals("string", js.properties().get("chart").get("type").asText());
        assertSame(doc, SourceLanguage.PYTHON.forPrompt(doc));
    }
}
