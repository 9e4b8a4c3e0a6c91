package dev.toolcoach.tools.mcp;

import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolOutput;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.List;

/** What the model reads of an MCP tool result, and what rewards see of it. */
final class McpResults {

    private McpResults() {
    }

    /**
     * The result's text content in order (other content named by kind, never its bytes), with its
     * structured content, or its text, as the structured value. A result the server marks as an error
     * is the tool's failure; one without content is malformed.
     */
    static ToolOutput toOutput(String server, String tool, McpSchema.CallToolResult result) throws ToolException {
        if (result == null || (result.content() == null && result.structuredContent() == null)) {
            throw new ToolException("MCP server '" + server + "' returned a malformed result for '" + tool
                    + "': it has neither content nor structured content");
        }
        List<String> parts = new ArrayList<>();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            if (content == null) {
                throw new ToolException("MCP server '" + server + "' returned a malformed result for '" + tool
                        + "': a content item is null");
            }
            parts.add(describe(content));
        }
        String text = String.join("\n", parts);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new ToolException(text.isEmpty() ? "tool '" + tool + "' failed without saying why" : text);
        }
        if (result.structuredContent() != null) {
            return new ToolOutput(text.isEmpty() ? String.valueOf(result.structuredContent()) : text, result.structuredContent());
        }
        return ToolOutput.text(text);
    }

    private static String describe(McpSchema.Content content) {
        if (content instanceof McpSchema.TextContent text) return text.text();
        if (content instanceof McpSchema.ImageContent image) return "[image " + image.mimeType() + "]";
        if (content instanceof McpSchema.AudioContent audio) return "[audio " + audio.mimeType() + "]";
        if (content instanceof McpSchema.ResourceLink link) return "[resource " + link.uri() + "]";
        if (content instanceof McpSchema.EmbeddedResource embedded) {
            if (embedded.resource() instanceof McpSchema.TextResourceContents resource) return resource.text();
            return "[resource " + embedded.resource().uri() + " " + embedded.resource().mimeType() + "]";
        }
        return "[" + content.type() + "]";
    }
}
