package dev.toolcoach.tools.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON of ToolCoach's MCP server (transports and server alike): the SDK's mapper with two corrections.
 * <ul>
 *   <li>An error the transport answers with ({@link McpError}, a Java exception) is written as a JSON-RPC error
 *       object, {@code {"jsonrpc": "2.0", "id": null, "error": {"code", "message"}}}; the SDK's mapper wrote the
 *       exception itself, its {@code stackTrace} included.</li>
 *   <li>A {@code tools/call} whose {@code arguments} is not a JSON object (a string, say) is read with its problem
 *       noted in {@code _meta} ({@link #BAD_ARGUMENTS}), so the tool's handler answers it with a JSON-RPC error
 *       ({@link #checkArguments}); the SDK's own conversion failure was lost before any reply was written.</li>
 * </ul>
 */
public final class McpWireJson implements McpJsonMapper {

    /** The {@code _meta} key under which a call's unusable {@code arguments} are described. */
    static final String BAD_ARGUMENTS = "dev.toolcoach/bad-arguments";

    private static final McpWireJson INSTANCE = new McpWireJson(McpJsonDefaults.getMapper());

    private final McpJsonMapper delegate;

    private McpWireJson(McpJsonMapper delegate) {
        this.delegate = delegate;
    }

    public static McpJsonMapper mapper() {
        return INSTANCE;
    }

    /**
     * Refuses a call whose arguments could not be read as an object.
     *
     * @throws McpError invalid params (-32602), which the SDK answers as a JSON-RPC error of the call's id
     */
    static void checkArguments(McpSchema.CallToolRequest request) {
        Object problem = request.meta() == null ? null : request.meta().get(BAD_ARGUMENTS);
        if (problem != null) throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(problem.toString()).build();
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object value, Class<T> type) {
        return McpWireJson.<T>convert(value, type).orElseGet(() -> delegate.convertValue(value, type));
    }

    @Override
    public <T> T convertValue(Object value, TypeRef<T> type) {
        return McpWireJson.<T>convert(value, type.getType()).orElseGet(() -> delegate.convertValue(value, type));
    }

    /** A call's params whose arguments are no object, as a request noting the problem; else empty (the SDK converts). */
    @SuppressWarnings("unchecked")
    private static <T> Optional<T> convert(Object value, Type type) {
        if (type != McpSchema.CallToolRequest.class || !(value instanceof Map<?, ?> params)) return Optional.empty();
        Object arguments = params.get("arguments");
        if (arguments == null || arguments instanceof Map<?, ?>) return Optional.empty();
        String kind = arguments instanceof String ? "a string" : arguments instanceof List<?> ? "an array"
                : arguments instanceof Number ? "a number" : arguments instanceof Boolean ? "a boolean" : "another value";
        Object name = params.get("name");
        return Optional.of((T) new McpSchema.CallToolRequest(name instanceof String n ? n : "", null,
                Map.of(BAD_ARGUMENTS, "params.arguments must be a JSON object, not " + kind)));
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(wire(value));
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(wire(value));
    }

    private static Object wire(Object value) {
        if (!(value instanceof McpError error)) return value;
        McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", rpc != null ? rpc.code() : McpSchema.ErrorCodes.INTERNAL_ERROR);
        body.put("message", rpc != null ? rpc.message() : "internal error");
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.put("id", null);
        response.put("error", body);
        return response;
    }
}
