package dev.toolcoach.tools.schema;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomDefinitionProviderV2;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfig;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.TypeContext;
import com.github.victools.jsonschema.generator.impl.module.SimpleTypeModule;
import dev.langchain4j.model.output.structured.Description;
import dev.toolcoach.tools.spi.Param;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Derives a JSON schema from a Java type with victools' jsonschema-generator: primitives and their boxes, String,
 * BigDecimal/BigInteger, enums, dates, Optional, arrays, collections, String-keyed maps, records and plain classes of
 * fields (nested as objects, each inlined, so a model reads one self-contained schema).
 */
public final class JsonSchemaGenerator {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

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
        // a generator per call: ArgumentTypes tracks the enclosing types of this one generation
        return new SchemaGenerator(config(new ArgumentTypes())).generateSchema(type);
    }

    /** Optional&lt;T&gt; is T that may be left out. */
    public static boolean isOptional(Type type) {
        return type == Optional.class || type instanceof ParameterizedType p && p.getRawType() == Optional.class;
    }

    private static SchemaGeneratorConfig config(ArgumentTypes argumentTypes) {
        // the JSON types ToolJson binds, and no others (the library's defaults would make byte a string and
        // LocalDateTime a date-time)
        SimpleTypeModule simpleTypes = new SimpleTypeModule().withEmptySchema(Object.class);
        List.of(String.class, char.class, Character.class, CharSequence.class).forEach(simpleTypes::withStringType);
        List.of(boolean.class, Boolean.class).forEach(simpleTypes::withBooleanType);
        List.of(byte.class, short.class, int.class, long.class, Byte.class, Short.class, Integer.class, Long.class,
                BigInteger.class).forEach(simpleTypes::withIntegerType);
        List.of(float.class, double.class, Float.class, Double.class, BigDecimal.class).forEach(simpleTypes::withNumberType);
        simpleTypes.withStandardStringType(LocalDate.class, "date")
                .withStandardStringType(Instant.class, "date-time")
                .withStandardStringType(OffsetDateTime.class, "date-time");
        SchemaGeneratorConfigBuilder builder = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, new OptionPreset(
                Option.STANDARD_FORMATS, Option.FLATTENED_ENUMS, Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT,
                // one self-contained schema without $defs, a description beside its type rather than in an allOf
                Option.INLINE_ALL_SCHEMAS, Option.ALLOF_CLEANUP_AT_THE_END,
                // an argument class's instance fields, private or not, as ToolJson binds them
                Option.PUBLIC_NONSTATIC_FIELDS, Option.NONPUBLIC_NONSTATIC_FIELDS_WITH_GETTERS,
                Option.NONPUBLIC_NONSTATIC_FIELDS_WITHOUT_GETTERS))
                .with(simpleTypes);
        builder.forTypesInGeneral()
                .withCustomDefinitionProvider(argumentTypes)
                // declaration order, not the library's alphabetical one
                .withPropertySorter((a, b) -> 0);
        builder.forFields()
                .withRequiredCheck(JsonSchemaGenerator::isRequired)
                .withDescriptionResolver(JsonSchemaGenerator::description);
        return builder.build();
    }

    /** A record component's {@code @Param} (it targets components, which the library does not read), else null. */
    private static Param componentParam(FieldScope field) {
        Field raw = field.getRawMember();
        if (!raw.getDeclaringClass().isRecord()) return null;
        for (RecordComponent component : raw.getDeclaringClass().getRecordComponents()) {
            if (component.getName().equals(raw.getName())) return component.getAnnotation(Param.class);
        }
        return null;
    }

    /** Required unless Optional or a record component marked {@code @Param(required = false)}. */
    private static boolean isRequired(FieldScope field) {
        Param param = componentParam(field);
        return field.getRawMember().getType() != Optional.class && (param == null || param.required());
    }

    /** {@code @Param} of a record component, else LangChain4j's {@code @Description}. */
    private static String description(FieldScope field) {
        Param param = componentParam(field);
        if (param != null) return param.value().strip();
        Description described = field.getRawMember().getAnnotation(Description.class);
        return described == null ? null : String.join("\n", described.value()).strip();
    }

    /**
     * The types beyond the simple ones: Optional as its value, String-keyed maps as objects of values, records and
     * plain classes inlined; anything else, and a type containing itself, is refused in one line.
     */
    private static final class ArgumentTypes implements CustomDefinitionProviderV2 {

        private final Deque<ResolvedType> enclosing = new ArrayDeque<>();

        @Override
        public CustomDefinition provideCustomSchemaDefinition(ResolvedType type, SchemaGenerationContext context) {
            TypeContext types = context.getTypeContext();
            Class<?> raw = type.getErasedType();
            if (raw.isEnum() || types.isContainerType(type)) return null; // the library's own
            if (raw == Optional.class) return bare(context.createDefinition(parameter(types, type, Optional.class, 0)));
            if (Map.class.isAssignableFrom(raw)) {
                ResolvedType key = parameter(types, type, Map.class, 0);
                if (!key.isInstanceOf(String.class) && key.getErasedType() != Object.class) {
                    throw new IllegalArgumentException("map keys of tool arguments must be strings, not "
                            + types.getFullTypeDescription(key));
                }
                ObjectNode schema = JSON.objectNode().put("type", "object");
                ResolvedType value = parameter(types, type, Map.class, 1);
                if (value.getErasedType() != Object.class) schema.set("additionalProperties", context.createDefinition(value));
                return bare(schema);
            }
            if (!raw.isRecord() && !isPlainObject(raw)) {
                throw new IllegalArgumentException("type " + types.getFullTypeDescription(type)
                        + " is not supported for tool arguments (use primitives, String, BigDecimal, enums, dates, List, Map,"
                        + " Optional, records or classes with fields and a no-argument constructor)");
            }
            if (enclosing.contains(type)) {
                throw new IllegalArgumentException((raw.isRecord() ? "record " : "class ") + raw.getName()
                        + " contains itself; recursive argument types are not supported");
            }
            enclosing.push(type);
            ObjectNode schema = context.createStandardDefinition(type, this);
            enclosing.pop();
            return new CustomDefinition(schema, true);
        }

        /** The type's parameter, Object where it is raw. */
        private static ResolvedType parameter(TypeContext types, ResolvedType type, Class<?> generic, int index) {
            ResolvedType parameter = types.getTypeParameterFor(type, generic, index);
            return parameter == null ? types.resolve(Object.class) : parameter;
        }

        /** Inlined as given, without the object attributes (additionalProperties false) the library adds to objects. */
        private static CustomDefinition bare(ObjectNode schema) {
            return new CustomDefinition(schema, CustomDefinition.INLINE_DEFINITION, CustomDefinition.EXCLUDING_ATTRIBUTES);
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
    }
}
