package dev.toolcoach.tasks.calling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.toolcoach.tasks.calling.PyText.dotAll;
import static dev.toolcoach.tasks.calling.PyText.pattern;

/**
 * Java argument values as BFCL reads them (its {@code java_type_converter.py}): text in Java syntax becomes the value
 * it writes ({@code "true"}, {@code "5L"}, {@code "new int[]{1, 2}"}, a {@code HashMap} built with {@code put}), and
 * text the declared type does not parse stays text, which the checker then takes only where the possible answer is
 * text too (a variable). Its quirks are kept, since they count in its scores: a {@code char} stays as written (its
 * pattern cannot match), the items of an {@code Array} of {@code String} keep their quotes while those of an
 * {@code ArrayList} lose them, and the items of an {@code ArrayList} of {@code any} stay text.
 */
final class JavaSyntax {

    /** The type names BFCL's Java converter takes. */
    static final Set<String> TYPES = Set.of("byte", "short", "integer", "float", "double", "long", "boolean", "char",
            "Array", "ArrayList", "Set", "HashMap", "Hashtable", "Queue", "Stack", "String", "any");
    /** Types BFCL names but never converts (it raises NotImplementedError). */
    static final Set<String> UNCONVERTED = Set.of("Set", "Hashtable", "Queue", "Stack");

    private static final Pattern INTEGER = pattern("^-?\\d+$");
    private static final Pattern FLOAT = pattern("^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?[fF]$");
    private static final Pattern DOUBLE = pattern("^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?$");
    private static final Pattern LONG = pattern("^-?\\d+[lL]$");
    private static final Pattern FLOAT_SUFFIX = pattern("[fF]$");
    private static final Pattern LONG_SUFFIX = pattern("[lL]$");
    private static final Pattern AS_LIST = pattern("new\\s+ArrayList<\\w*>\\(Arrays\\.asList\\((.+?)\\)\\)");
    private static final Pattern ADDS = dotAll("new\\s+ArrayList<\\w*>\\(\\)\\s*\\{\\{\\s*(.+?)\\s*\\}\\}");
    private static final Pattern ADD = pattern("add\\((.+?)\\)");
    private static final Pattern EMPTY_LIST = pattern("new\\s+ArrayList<\\w*>\\(\\)");
    private static final Pattern ARRAY = pattern("new\\s+\\w+\\[\\]\\s*\\{(.*?)\\}");
    private static final Pattern HASHMAP = dotAll("new\\s+HashMap<.*?>\\s*\\(\\)\\s*\\{\\s*\\{?\\s*(.*?)\\s*\\}?\\s*\\}");
    private static final Pattern PUT = pattern("put\\(\"(.*?)\",\\s*(.*?)\\)");
    private static final Pattern EMPTY_MAP = pattern("new\\s+HashMap<.*?>\\s*\\(\\)");

    private JavaSyntax() {
    }

    /** The value BFCL reads from {@code text} for a parameter of the declared {@code type} (items of {@code itemType}). */
    static Object read(String text, String type, String itemType) {
        return switch (type) {
            case "byte", "short", "integer" -> INTEGER.matcher(text).lookingAt() ? PyText.numberOr(PyText.toInt(text), text) : text;
            case "float" -> FLOAT.matcher(text).lookingAt()
                    ? PyText.numberOr(PyText.toFloat(FLOAT_SUFFIX.matcher(text).replaceAll("")), text) : text;
            case "double" -> DOUBLE.matcher(text).lookingAt() ? PyText.numberOr(PyText.toFloat(text), text) : text;
            case "long" -> LONG.matcher(text).lookingAt()
                    ? PyText.numberOr(PyText.toInt(LONG_SUFFIX.matcher(text).replaceAll("")), text) : text;
            case "boolean" -> text.equals("true") || text.equals("false") ? (Object) text.equals("true") : text;
            case "ArrayList" -> arrayList(text, itemType);
            case "Array" -> array(text, itemType);
            case "HashMap" -> hashMap(text);
            case "char", "String", "any" -> text;
            default -> throw new IllegalArgumentException("BFCL's Java converter does not take type '" + type + "'");
        };
    }

    private static Object arrayList(String text, String itemType) {
        Matcher m = AS_LIST.matcher(text);
        if (m.find()) {
            List<Object> items = new ArrayList<>();
            for (String item : PyText.split(m.group(1), ",")) items.add(arrayListItem(PyText.strip(item), itemType));
            return items;
        }
        m = ADDS.matcher(text);
        if (m.find()) {
            List<Object> items = new ArrayList<>();
            Matcher add = ADD.matcher(m.group(1));
            while (add.find()) items.add(arrayListItem(PyText.strip(add.group(1)), itemType));
            return items;
        }
        return EMPTY_LIST.matcher(text).find() ? List.of() : text;
    }

    private static Object arrayListItem(String text, String itemType) {
        if ("char".equals(itemType) || "String".equals(itemType)) return PyText.inner(text);
        return itemType == null ? value(text) : read(text, itemType, null);
    }

    private static Object array(String text, String itemType) {
        Matcher m = ARRAY.matcher(text);
        if (!m.find()) return text;
        List<Object> items = new ArrayList<>();
        for (String item : PyText.split(m.group(1), ",")) {
            String t = PyText.strip(item);
            if (!t.isEmpty()) items.add(itemType == null ? value(t) : read(t, itemType, null));
        }
        return items;
    }

    private static Object hashMap(String text) {
        Matcher m = HASHMAP.matcher(text);
        if (m.find()) {
            Map<String, Object> entries = new LinkedHashMap<>();
            Matcher put = PUT.matcher(m.group(1));
            while (put.find()) entries.put(put.group(1), value(PyText.strip(put.group(2))));
            return entries;
        }
        return EMPTY_MAP.matcher(text).find() ? Map.of() : text;
    }

    /** BFCL's {@code parse_java_value}: a literal whose type is not declared. */
    private static Object value(String text) {
        if (text.equals("true") || text.equals("false")) return text.equals("true");
        if (text.startsWith("\"") && text.endsWith("\"")) return PyText.inner(text);
        if (LONG.matcher(text).lookingAt()) return PyText.numberOr(PyText.toInt(PyText.dropLast(text)), text);
        if (FLOAT.matcher(text).lookingAt()) return PyText.numberOr(PyText.toFloat(FLOAT_SUFFIX.matcher(text).replaceAll("")), text);
        Number n = PyText.toInt(text);
        return n != null ? n : PyText.numberOr(PyText.toFloat(text), text);
    }

    /** A JSON value written as Java source text for a parameter of the declared type, the way BFCL's converter reads it. */
    static String write(Object value, String type, String itemType) {
        if (value instanceof String s) return s;
        if (value instanceof List<?> items && "Array".equals(type)) {
            return "new " + elementType(itemType) + "[]{" + join(items, itemType) + "}";
        }
        if (value instanceof List<?> items && "ArrayList".equals(type)) {
            return items.isEmpty() ? "new ArrayList<>()" : "new ArrayList<>(Arrays.asList(" + join(items, itemType) + "))";
        }
        if (value instanceof Map<?, ?> entries && "HashMap".equals(type)) {
            if (entries.isEmpty()) return "new HashMap<>()";
            StringBuilder out = new StringBuilder("new HashMap<String, Object>() {{ ");
            entries.forEach((k, v) -> out.append("put(\"").append(k).append("\", ").append(literal(v, null)).append("); "));
            return out.append("}}").toString();
        }
        return literal(value, type);
    }

    private static String join(List<?> items, String itemType) {
        return items.stream().map(i -> literal(i, itemType)).collect(Collectors.joining(", "));
    }

    /** A value as a Java literal of the given type (a string in double quotes, or single ones for a char). */
    private static String literal(Object value, String type) {
        if (value == null) return "null";
        if (value instanceof String s) return "char".equals(type) ? "'" + s + "'" : "\"" + s + "\"";
        if (value instanceof List<?> items) return "Arrays.asList(" + join(items, null) + ")";
        if (value instanceof Map<?, ?> map) return write(map, "HashMap", null);
        if (!(value instanceof Number n)) return value.toString();
        if ("float".equals(type)) return n + "f";
        return "long".equals(type) && JsonKind.of(n) == JsonKind.INTEGER ? n + "L" : n.toString();
    }

    private static String elementType(String itemType) {
        if (itemType == null) return "Object";
        return switch (itemType) {
            case "integer" -> "int";
            case "any" -> "Object";
            default -> itemType;
        };
    }
}
