package dev.toolcoach.toolnode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.server.Request;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MCP endpoint's error answers (a refused token or origin: 401, 403) as JSON whose message is the message: Jetty's own
 * JSON error page escapes it for HTML ({@code request&apos;s}), which a JSON client then shows as is.
 */
final class JsonErrorHandler extends ErrorHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected void writeErrorJson(Request request, PrintWriter writer, int code, String message, Throwable cause) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("status", code);
        error.put("error", message == null ? "" : message);
        try {
            writer.write(JSON.writeValueAsString(error));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
