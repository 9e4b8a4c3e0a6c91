package dev.toolcoach.tasks.calling;

import java.util.Locale;

/**
 * The declared type of a function parameter, covering BFCL's Python-style names ("dict", "float",
 * "tuple", "any", ...), its Java and JavaScript names ("HashMap", "ArrayList", "char", "Bigint", ...) mapped as
 * BFCL maps them, and their JSON Schema equivalents ("object", "number").
 */
public enum ParamType {
    STRING, INTEGER, FLOAT, BOOLEAN, ARRAY, TUPLE, DICT, ANY;

    /** Maps a schema type name; names this checker does not know are treated as ANY (not type-checked). */
    public static ParamType of(String name) {
        if (name == null) return ANY;
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "string", "str", "char" -> STRING;
            case "integer", "int", "long", "byte", "short", "bigint" -> INTEGER;
            case "float", "number", "double" -> FLOAT;
            case "boolean", "bool" -> BOOLEAN;
            case "array", "list", "arraylist", "queue", "stack" -> ARRAY;
            case "tuple" -> TUPLE;
            case "dict", "object", "hashmap", "hashtable" -> DICT;
            default -> ANY;
        };
    }

    /** True for the list-shaped types whose elements have an item type. */
    public boolean isSequence() {
        return this == ARRAY || this == TUPLE;
    }

    /** Whether a JSON value of the given kind is of this type (an integer is accepted for a float, as in Python). */
    public boolean accepts(JsonKind kind) {
        return switch (this) {
            case STRING -> kind == JsonKind.STRING;
            case INTEGER -> kind == JsonKind.INTEGER;
            case FLOAT -> kind == JsonKind.FLOAT || kind == JsonKind.INTEGER;
            case BOOLEAN -> kind == JsonKind.BOOLEAN;
            case ARRAY, TUPLE -> kind == JsonKind.ARRAY;
            case DICT -> kind == JsonKind.DICT;
            case ANY -> true;
        };
    }

    /**
     * Whether a value of this JSON kind is of this type as BFCL's type check sees it ({@code type(value) == ...},
     * no int for a float, which the checker converts first): BFCL takes "any" for a string; the strict checker
     * ({@code bfcl} false) lets "any" and unknown type names take every kind.
     */
    public boolean isKind(JsonKind kind, boolean bfcl) {
        return switch (this) {
            case STRING -> kind == JsonKind.STRING;
            case INTEGER -> kind == JsonKind.INTEGER;
            case FLOAT -> kind == JsonKind.FLOAT;
            case BOOLEAN -> kind == JsonKind.BOOLEAN;
            case ARRAY, TUPLE -> kind == JsonKind.ARRAY;
            case DICT -> kind == JsonKind.DICT;
            case ANY -> !bfcl || kind == JsonKind.STRING;
        };
    }

    public String schemaName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
