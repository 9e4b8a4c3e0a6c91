package dev.toolcoach.tools.annotated;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.schema.JsonSchemaGenerator;
import dev.toolcoach.tools.schema.ToolJson;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.TrajectoryId;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Turns the annotated public methods of an object into tools: this project's {@link ToolMethod} /
 * {@link Param} / {@link TrajectoryId}, or LangChain4j's {@code @Tool} / {@code @P} /
 * {@code @ToolMemoryId}, so existing LangChain4j tool classes work unchanged.
 */
public final class AnnotatedTools {

    private AnnotatedTools() {
    }

    /** Whether the method is a tool: annotated {@code @ToolMethod} or LangChain4j's {@code @Tool}. */
    public static boolean isToolMethod(Method method) {
        return method.isAnnotationPresent(ToolMethod.class) || method.isAnnotationPresent(dev.langchain4j.agent.tool.Tool.class);
    }

    /** One tool per annotated method, ordered by tool name; fails naming the method if one cannot be a tool. */
    public static List<Tool> scan(Object toolObject) {
        List<Tool> tools = new ArrayList<>();
        for (Method method : toolObject.getClass().getMethods()) {
            ToolMethod own = method.getAnnotation(ToolMethod.class);
            dev.langchain4j.agent.tool.Tool langchain = method.getAnnotation(dev.langchain4j.agent.tool.Tool.class);
            if (own != null) {
                tools.add(toolOf(toolObject, method, orDefault(own.name(), method.getName()), own.description()));
            } else if (langchain != null) {
                tools.add(toolOf(toolObject, method, orDefault(langchain.name(), method.getName()),
                        String.join("\n", langchain.value())));
            }
        }
        if (tools.isEmpty()) {
            throw new IllegalArgumentException(toolObject.getClass().getName()
                    + " has no public method annotated @ToolMethod or LangChain4j @Tool");
        }
        tools.sort(Comparator.comparing(Tool::name));
        return tools;
    }

    private static MethodTool toolOf(Object target, Method method, String name, String description) {
        // public methods of a non-public class (e.g. a nested tool class) still need access
        if (!Modifier.isPublic(method.getDeclaringClass().getModifiers())) method.setAccessible(true);
        ObjectNode schema = JsonSchemaGenerator.objectSchema();
        List<ParameterBinding> bindings = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) bindings.add(bind(parameter, method, schema));
        return new MethodTool(new ToolSpec(name, description, schema), target, method, bindings);
    }

    /** How the parameter gets its value; a model argument is also added to the schema. */
    private static ParameterBinding bind(Parameter parameter, Method method, ObjectNode schema) {
        if (parameter.isAnnotationPresent(TrajectoryId.class) || parameter.isAnnotationPresent(ToolMemoryId.class)) {
            if (parameter.getType() != String.class) {
                throw new IllegalArgumentException(where(method) + ": the trajectory id parameter must be a String");
            }
            return new ParameterBinding.TrajectoryIdArgument();
        }
        Param param = parameter.getAnnotation(Param.class);
        P langchainParam = parameter.getAnnotation(P.class);
        String name = argumentName(parameter, param, method);
        Type type = parameter.getParameterizedType();
        boolean optionalType = JsonSchemaGenerator.isOptional(type);
        boolean required = !optionalType && (param != null ? param.required() : langchainParam == null || langchainParam.required());
        if (!required && parameter.getType().isPrimitive()) {
            throw new IllegalArgumentException(where(method) + ": optional argument '" + name
                    + "' needs a boxed type, a primitive cannot be left out");
        }
        String description = param != null ? param.value() : langchainParam != null ? langchainParam.value() : "";
        try {
            JsonSchemaGenerator.addProperty(schema, name, type, description, required);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where(method) + ", argument '" + name + "': " + e.getMessage(), e);
        }
        Type valueType = optionalType ? ((ParameterizedType) type).getActualTypeArguments()[0] : type;
        JavaType javaType = ToolJson.mapper().getTypeFactory().constructType(valueType);
        return new ParameterBinding.Argument(name, javaType, optionalType);
    }

    private static String argumentName(Parameter parameter, Param param, Method method) {
        if (param != null && !param.name().isBlank()) return param.name();
        if (!parameter.isNamePresent()) {
            throw new IllegalArgumentException(where(method) + ": parameter names are not in the class file;"
                    + " compile with -parameters or name them with @Param(name = ...)");
        }
        return parameter.getName();
    }

    private static String where(Method method) {
        return "tool method " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
                + Arrays.toString(method.getParameterTypes());
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
