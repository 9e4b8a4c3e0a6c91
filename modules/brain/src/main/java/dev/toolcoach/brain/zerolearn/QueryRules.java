package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The bounds a generated query must keep: word limit, call count, and calls that fit the tool schemas. */
final class QueryRules {

    private final ZeroLearnRequest request;
    private final Map<String, ToolSpec> tools = new LinkedHashMap<>();

    QueryRules(ZeroLearnRequest request) {
        this.request = request;
        request.tools().forEach(t -> tools.put(t.name(), t));
    }

    /** The first rule the query breaks, or empty when it may be kept. */
    Optional<Rejection> check(GeneratedQuery q) {
        if (q.wordCount() > request.maxWords()) return Optional.of(Rejection.TOO_MANY_WORDS);
        if (q.intendedCalls().size() < request.minToolCalls()) return Optional.of(Rejection.TOO_FEW_TOOL_CALLS);
        for (ToolCall call : q.intendedCalls()) {
            ToolSpec spec = tools.get(call.name());
            if (spec == null) return Optional.of(Rejection.UNKNOWN_TOOL);
            if (!fits(spec, call)) return Optional.of(Rejection.INVALID_ARGUMENTS);
        }
        return Optional.empty();
    }

    private static boolean fits(ToolSpec spec, ToolCall call) {
        if (!call.arguments().keySet().containsAll(spec.required())) return false;
        // a schema without declared properties does not restrict the argument names
        return !spec.parameters().has("properties") || spec.parameterNames().containsAll(call.arguments().keySet());
    }
}
