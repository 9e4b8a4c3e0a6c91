package dev.toolcoach.tools.annotated;

import dev.toolcoach.tools.schema.ToolJson;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/** A tool backed by an annotated Java method; the method's return value becomes the output. */
final class MethodTool implements Tool {

    private final ToolSpec spec;
    private final Object target;
    private final Method method;
    private final List<ParameterBinding> bindings;

    MethodTool(ToolSpec spec, Object target, Method method, List<ParameterBinding> bindings) {
        this.spec = spec;
        this.target = target;
        this.method = method;
        this.bindings = List.copyOf(bindings);
    }

    @Override
    public ToolSpec spec() {
        return spec;
    }

    @Override
    public ToolOutput call(ToolInvocation invocation) throws Exception {
        Object[] values = new Object[bindings.size()];
        for (int i = 0; i < values.length; i++) values[i] = bindings.get(i).resolve(invocation);
        Object result;
        try {
            result = method.invoke(target, values);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) throw cause;
            if (e.getCause() instanceof Error error) throw error;
            throw e;
        }
        return method.getReturnType() == void.class ? ToolOutput.text("done") : ToolOutput.of(result, ToolJson.mapper());
    }

    @Override
    public String toString() {
        return "MethodTool[" + spec.name() + " -> " + method + "]";
    }
}
