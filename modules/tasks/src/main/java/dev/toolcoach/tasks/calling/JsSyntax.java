package dev.toolcoach.tasks.calling;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.toolcoach.tasks.calling.PyText.pattern;

/**
 * JavaScript argument values as BFCL reads them (its {@code js_type_converter.py}): text in JavaScript syntax becomes
 * the value it writes ({@code "'abc'"}, {@code "42n"}, {@code "[1, 2]"}, {@code "{key: 1}"}), and text the declared
 * type does not parse stays text, which the checker then takes only where the possible answer is text too (a
 * variable). Its quirks are kept, since they count in its scores: an array or object that does not parse is
 * returned with its surrounding whitespace stripped, object values lose their quotes before they are read (so
 * {@code 'true'} is a boolean), and an object ends at its first {@code }}.
 */
final class JsSyntax {

    /** The type names BFCL's JavaScript converter takes. */
    static final Set<String> TYPES = Set.of("String", "integer", "float", "Bigint", "Boolean", "dict", "array", "any");

    private static final Pattern INTEGER = pattern("^-?\\d+$");
    private static final Pattern FLOAT = pattern("^-?\\d+(\\.\\d+)?$");
    private static final Pattern BIGINT = pattern("^-?\\d+n$");
    private static final Pattern ARRAY_2D = pattern(
            "\\[\\s*\\[.*?\\]\\s*(,\\s*\\[.*?\\]\\s*)*\\]|\\bnew\\s+Array\\(\\s*\\[.*?\\]\\s*(,\\s*\\[.*?\\]\\s*)*\\)");
    private static final Pattern ARRAY = pattern("\\[(.*?)\\]|\\bnew\\s+Array\\((.*?)\\)");
    private static final Pattern BRACKETS = pattern("\\[(.*?)\\]");
    private static final Pattern OBJECT = pattern("\\{(.*?)\\}");
    private static final Pattern PAIR = pattern("([^:]+):\\s*(.*?)(?:,\\s*(?=[^,]+:)|$)");

    private JsSyntax() {
    }

    /** The value BFCL reads from {@code text} for a parameter of the declared {@code type} (items of {@code itemType}). */
    static Object read(String text, String type, String itemType) {
        return switch (type) {
            case "String" -> quoted(text) ? PyText.inner(text) : text;
            case "integer" -> INTEGER.matcher(text).lookingAt() ? PyText.numberOr(PyText.toInt(text), text) : text;
            case "float" -> FLOAT.matcher(text).lookingAt() ? PyText.numberOr(PyText.toFloat(text), text) : text;
            case "Bigint" -> BIGINT.matcher(text).lookingAt() ? PyText.numberOr(PyText.toInt(PyText.dropLast(text)), text) : text;
            case "Boolean" -> text.equals("true") || text.equals("false") ? (Object) text.equals("true") : text;
            case "array" -> array(PyText.strip(text), itemType);
            case "dict" -> object(PyText.strip(text));
            case "any" -> text;
            default -> throw new IllegalArgumentException("BFCL's JavaScript converter does not take type '" + type + "'");
        };
    }

    private static Object array(String code, String itemType) {
        Matcher rows = ARRAY_2D.matcher(code);
        if (rows.lookingAt()) {
            List<Object> out = new ArrayList<>();
            Matcher row = BRACKETS.matcher(rows.group());
            for (int i = 0; row.find(); i++) {
                String inner = PyText.strip(row.group(1));
                if (i == 0 && inner.startsWith("[")) inner = inner.substring(1);
                List<Object> items = new ArrayList<>();
                for (String item : PyText.split(inner, ",")) items.add(value(PyText.strip(item)));
                out.add(items);
            }
            return out;
        }
        Matcher m = ARRAY.matcher(code);
        if (!m.lookingAt()) return code;
        String inside = PyText.strip(m.group(1) != null ? m.group(1) : m.group(2));
        List<Object> out = new ArrayList<>();
        if (inside.isEmpty()) return out;
        try {
            for (String item : PyText.split(inside, ",")) {
                String t = PyText.strip(item);
                boolean quoted = t.startsWith("'") || t.startsWith("\"");
                out.add(itemType == null || itemType.isEmpty() ? value(t) : read(t, itemType, quoted ? "String" : null));
            }
        } catch (IllegalArgumentException e) {
            return code;  // BFCL returns the text when an item's type is one it does not take
        }
        return out;
    }

    private static Object object(String code) {
        if (code.equals("{}")) return new LinkedHashMap<>();
        Matcher m = OBJECT.matcher(code);
        if (!m.lookingAt()) return code;
        Map<String, Object> out = new LinkedHashMap<>();
        Matcher pair = PAIR.matcher(m.group(1));
        while (pair.find()) {
            String key = PyText.strip(PyText.strip(pair.group(1)), "'\"");
            String v = PyText.strip(pair.group(2));
            if (v.startsWith("[") && v.endsWith("]")) out.put(key, array(v, null));
            else if (v.startsWith("{") && v.endsWith("}")) out.put(key, object(v));
            else out.put(key, value(PyText.strip(v, "'\"")));
        }
        return out;
    }

    /** BFCL's {@code parse_js_value}: a literal whose type is not declared. */
    private static Object value(String text) {
        String t = PyText.strip(text);
        if (t.equals("true") || t.equals("false")) return t.equals("true");
        if (quoted(t)) return PyText.inner(t);
        Number n = PyText.toInt(t);
        return n != null ? n : PyText.numberOr(PyText.toFloat(t), t);
    }

    private static boolean quoted(String t) {
        return t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'");
    }

    /** A JSON value written as JavaScript source text for a parameter of the declared type, the way BFCL's converter reads it. */
    static String write(Object value, String type, String itemType) {
        if (value instanceof String s) return "String".equals(type) ? "\"" + s + "\"" : s;
        if ("Bigint".equals(type) && value instanceof Number n && JsonKind.of(n) == JsonKind.INTEGER) return n + "n";
        return literal(value);
    }

    /** A value as a JavaScript literal: strings in double quotes, numbers without exponent (BFCL's float pattern has none). */
    private static String literal(Object value) {
        if (value == null) return "null";
        if (value instanceof String s) return "\"" + s + "\"";
        if (value instanceof List<?> items) return "[" + items.stream().map(JsSyntax::literal).collect(Collectors.joining(", ")) + "]";
        if (value instanceof Map<?, ?> map) {
            return "{" + map.entrySet().stream().map(e -> "\"" + e.getKey() + "\": " + literal(e.getValue()))
                    .collect(Collectors.joining(", ")) + "}";
        }
        if (value instanceof Number n && JsonKind.of(n) == JsonKind.FLOAT) return new BigDecimal(n.toString()).toPlainString();
        return value.toString();
    }
}
