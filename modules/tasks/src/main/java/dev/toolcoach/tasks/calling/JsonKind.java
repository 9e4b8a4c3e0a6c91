package dev.toolcoach.tasks.calling;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** The JSON kind of a value as Jackson reads it into plain Java objects. */
public enum JsonKind {
    STRING, INTEGER, FLOAT, BOOLEAN, ARRAY, DICT, NULL;

    public static JsonKind of(Object value) {
        if (value == null) return NULL;
        if (value instanceof String) return STRING;
        if (value instanceof Boolean) return BOOLEAN;
        if (value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) return INTEGER;
        if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) return FLOAT;
        if (value instanceof List<?>) return ARRAY;
        if (value instanceof Map<?, ?>) return DICT;
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }
}
