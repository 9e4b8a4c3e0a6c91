package dev.toolcoach.tools.schema;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.output.structured.Description;
import dev.toolcoach.tools.spi.Param;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Derives a JSON schema from a Java type: primitives and their boxes, String, BigDecimal/BigInteger,
 * enums, dates, Optional, arrays, collections, String-keyed maps, records and plain classes of fields (nested as objects).
 */
public final class JsonSchemaGenerator {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<Class<?>> INTEGERS = Set.of(byte.class, short.class, int.class, long.class,
            Byte.class, Short.class, Integer.class, Long.class, BigInteger.class);
    private static final Set<Class<?>> NUMBERS = Set.of(float.class, double.class, Float.class, Double.class,
            BigDecimal.class);

    private JsonSchemaGenerator() {
    }

    /** An empty object schema to which {@link #addProperty} adds the arguments. */
    public static ObjectNode objectSchema() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        schema.putObject("properties");
        schema.putArray("required");
        schema.put("additionalProperties", false);
        return schema;
    }

    public static void addProperty(ObjectNode objectSchema, String name, Type type, String description, boolean required) {
        ObjectNode property = schemaOf(type);
        if (description != null && !description.isBlank()) property.put("description", description.strip());
        ((ObjectNode) objectSchema.get("properties")).set(name, property);
        if (required) ((ArrayNode) objectSchema.get("required")).add(name);
    }

    /** The schema of one value of the given type; unsupported types fail with the type's name. */
    public static ObjectNode schemaOf(Type type) {
        return schemaOf(type, new ArrayDeque<>());
    }

    /** Optional&lt;T&gt; is T that may be left out. */
    public static boolean isOptional(Type type) {
        return rawClass(type) == Optional.class;
    }

    private static ObjectNode schemaOf(Type type, Deque<Class<?>> enclosingRecords) {
        Class<?> raw = rawClass(type);
        ObjectNode schema = JSON.objectNode();
        if (raw == boolean.class || raw == Boolean.class) return schema.put("type", "boolean");
        if (INTEGERS.contains(raw)) return schema.put("type", "integer");
        if (NUMBERS.contains(raw)) return schema.put("type", "number");
        if (raw == String.class || raw == char.class || raw == Character.class || raw == CharSequence.class) {
            return schema.put("type", "string");
        }
        if (raw == LocalDate.class) return schema.put("type", "string").put("format", "date");
        if (raw == Instant.class || raw == OffsetDateTime.class) return schema.put("type", "string").put("format", "date-time");
        if (raw.isEnum()) {
            schema.put("type", "string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : raw.getEnumConstants()) values.add(((Enum<?>) constant).name());
            return schema;
        }
        if (raw == Optional.class) return schemaOf(typeArgument(type, 0), enclosingRecords);
        if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
            schema.put("type", "array");
            Type element = raw.isArray() ? componentType(type) : typeArgument(type, 0);
            if (element != Object.class) schema.set("items", schemaOf(element, enclosingRecords));
            return schema;
        }
        if (Map.class.isAssignableFrom(raw)) {
            Type key = typeArgument(type, 0);
            if (key != Object.class && key != String.class) {
                throw new IllegalArgumentException("map keys of tool arguments must be strings, not " + key.getTypeName());
            }
            schema.put("type", "object");
            Type value = typeArgument(type, 1);
            if (value != Object.class) schema.set("additionalProperties", schemaOf(value, enclosingRecords));
            return schema;
        }
        if (raw.isRecord()) return recordSchema(raw, enclosingRecords);
        if (raw == Object.class) return schema;
        if (isPlainObject(raw)) return pojoSchema(raw, enclosingRecords);
        throw new IllegalArgumentException("type " + type.getTypeName() + " is not supported for tool arguments"
                + " (use primitives, String, BigDecimal, enums, dates, List, Map, Optional, records or classes with fields"
                + " and a no-argument constructor)");
    }

    /** A class of plain fields, as LangChain4j tool arguments often are: concrete, not the JDK's, constructible. */
    private static boolean isPlainObject(Class<?> raw) {
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers()) || raw.isPrimitive() || raw.getName().startsWith("java.")) {
            return false;
        }
        try {
            raw.getDeclaredConstructor();
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * A plain class's instance fields, its own and inherited, as an object's properties, each required unless
     * Optional (as LangChain4j makes them), described by LangChain4j's {@code @Description}.
     */
    private static ObjectNode pojoSchema(Class<?> type, Deque<Class<?>> enclosing) {
        if (enclosing.contains(type)) {
            throw new IllegalArgumentException("class " + type.getName() + " contains itself; recursive argument types are not supported");
        }
        enclosing.push(type);
        ObjectNode schema = objectSchema();
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) hierarchy.add(0, c);
        for (Class<?> c : hierarchy) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()) continue;
                ObjectNode property = schemaOf(field.getGenericType(), enclosing);
                Description description = field.getAnnotation(Description.class);
                if (description != null) property.put("description", String.join("\n", description.value()).strip());
                ((ObjectNode) schema.get("properties")).set(field.getName(), property);
                if (!isOptional(field.getGenericType())) ((ArrayNode) schema.get("required")).add(field.getName());
            }
        }
        enclosing.pop();
        return schema;
    }

    private static ObjectNode recordSchema(Class<?> record, Deque<Class<?>> enclosingRecords) {
        if (enclosingRecords.contains(record)) {
            throw new IllegalArgumentException("record " + record.getName() + " contains itself; recursive argument types are not supported");
        }
        enclosingRecords.push(record);
        ObjectNode schema = objectSchema();
        for (RecordComponent component : record.getRecordComponents()) {
            Param param = component.getAnnotation(Param.class);
            Description described = component.getAnnotation(Description.class); // LangChain4j's
            boolean required = !isOptional(component.getGenericType()) && (param == null || param.required());
            ObjectNode property = schemaOf(component.getGenericType(), enclosingRecords);
            if (param != null) property.put("description", param.value().strip());
            else if (described != null) property.put("description", String.join("\n", described.value()).strip());
            ((ObjectNode) schema.get("properties")).set(component.getName(), property);
            if (required) ((ArrayNode) schema.get("required")).add(component.getName());
        }
        enclosingRecords.pop();
        return schema;
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) return c;
        if (type instanceof ParameterizedType p) return (Class<?>) p.getRawType();
        if (type instanceof GenericArrayType) return Object[].class;
        if (type instanceof WildcardType w) return rawClass(w.getUpperBounds()[0]);
        throw new IllegalArgumentException("type " + type.getTypeName() + " is not supported for tool arguments");
    }

    private static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p) {
            Type argument = p.getActualTypeArguments()[index];
            return argument instanceof WildcardType w ? w.getUpperBounds()[0] : argument;
        }
        return Object.class;
    }

    private static Type componentType(Type type) {
        if (type instanceof GenericArrayType g) return g.getGenericComponentType();
        return ((Class<?>) type).getComponentType();
    }
}
