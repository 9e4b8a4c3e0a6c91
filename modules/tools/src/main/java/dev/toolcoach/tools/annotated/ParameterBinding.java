package dev.toolcoach.tools.annotated;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import dev.toolcoach.tools.schema.ToolJson;
import dev.toolcoach.tools.spi.InvalidArgumentsException;
import dev.toolcoach.tools.spi.ToolInvocation;

import java.util.Optional;

/** How one Java parameter of a tool method gets its value for a call. */
sealed interface ParameterBinding {

    Object resolve(ToolInvocation invocation) throws InvalidArgumentsException;

    /** A model argument converted from JSON to the parameter's type; absent optional ones become null or empty. */
    record Argument(String name, JavaType type, boolean wrapInOptional) implements ParameterBinding {
        @Override
        public Object resolve(ToolInvocation invocation) throws InvalidArgumentsException {
            Object json = invocation.arguments().get(name);
            if (json == null) return wrapInOptional ? Optional.empty() : null;
            try {
                Object value = ToolJson.mapper().convertValue(json, type);
                return wrapInOptional ? Optional.ofNullable(value) : value;
            } catch (IllegalArgumentException e) {
                String why = e.getCause() instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
                throw new InvalidArgumentsException("argument '" + name + "' cannot be read as "
                        + type.getRawClass().getSimpleName() + ": " + why);
            }
        }
    }

    /** The calling trajectory's id ({@code @TrajectoryId} or LangChain4j's {@code @ToolMemoryId}). */
    record TrajectoryIdArgument() implements ParameterBinding {
        @Override
        public Object resolve(ToolInvocation invocation) {
            return invocation.trajectoryId();
        }
    }
}
