package dev.toolcoach.testkit;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real OpenAI-compatible server on a free loopback port with a {@link ScriptedBackend} behind it:
 * a scripted teacher, judge or selector model that tests reach over HTTP with the real client. A test class
 * holds one for all its tests as {@code @RegisterExtension static final ScriptedServer server = ScriptedServer.start(..)},
 * which closes it after the last test.
 */
public final class ScriptedServer implements AutoCloseable, AfterAllCallback {

    private final ScriptedBackend backend;
    private final OpenAiServer server;

    private ScriptedServer(ScriptedBackend backend, OpenAiServer server) {
        this.backend = backend;
        this.server = server;
    }

    /** Starts serving a scripted model of that id, writing Tool-N1. */
    public static ScriptedServer start(String model) {
        return start(model, ActionFormat.TOOL_N1);
    }

    /** Starts serving a scripted model of that id that writes {@code format}. */
    public static ScriptedServer start(String model, ActionFormat format) {
        ScriptedBackend backend = new ScriptedBackend(model, format);
        return new ScriptedServer(backend, OpenAiServer.start(backend, ServerSettings.loopback(0)));
    }

    /** The script: what the served model replies, and the requests it saw. */
    public ScriptedBackend backend() {
        return backend;
    }

    /** The server's base URL, {@code http://127.0.0.1:<port>/v1}. */
    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }
}
