package dev.toolcoach.brain.endpoint;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.openai.GeneratorBackend;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.policy.NativeActionFormat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A local Hugging Face model folder served in this JVM the way {@code coach-node serve} serves it ({@link LocalPolicy}
 * behind {@link OpenAiServer} and {@link GeneratorBackend}, in the model's native action format, on 127.0.0.1 and a
 * free port), so whatever asks a model over the OpenAI API — a distillation teacher, a judge, a tool selector, a
 * Zero-Learn generator — drives a local folder exactly as it drives a remote endpoint. The model is loaded and the
 * server started on the first {@link #client()} only; {@link #close()} stops the server and frees the model.
 */
public final class ServedModel implements AutoCloseable {

    /** CPU generation of a long reply can take minutes; the server allows 600 s as well. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(600);

    private final Path folder;
    private final ComputeDevice device;
    private LocalPolicy policy;
    private GeneratorBackend backend;
    private OpenAiServer server;
    private OpenAiClient client;
    private boolean closed;

    /**
     * @param folder a Hugging Face model folder (config.json, safetensors, tokenizer.json)
     * @param device where it computes
     * @throws ModelLoadException when the folder has no config.json
     */
    public ServedModel(Path folder, ComputeDevice device) {
        this.folder = folder.toAbsolutePath().normalize();
        this.device = device;
        if (!Files.isRegularFile(this.folder.resolve("config.json"))) {
            throw new ModelLoadException(this.folder.resolve("config.json"), "file not found");
        }
    }

    public Path folder() {
        return folder;
    }

    /** The id the server answers to: the folder's name. */
    public String modelId() {
        return folder.getFileName().toString();
    }

    /** A client of the served model, loading and serving it on the first call. */
    public synchronized OpenAiClient client() {
        if (closed) throw new IllegalStateException("the served model " + folder + " is closed");
        if (client == null) {
            policy = LocalPolicy.load(folder, null, null, 1, device);
            backend = new GeneratorBackend(modelId(), policy.generator(), policy.tokenizer(), policy.chatFormat(),
                    NativeActionFormat.of(policy.model()));
            try {
                server = OpenAiServer.start(backend, ServerSettings.loopback(0).withMaxConcurrentGenerations(1));
            } catch (RuntimeException e) {
                policy.close();
                policy = null;
                throw e;
            }
            client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), modelId()).withRequestTimeout(REQUEST_TIMEOUT)
                    .withRetries(0, Duration.ofMillis(500), Duration.ofSeconds(1)).withMaxConcurrency(1));
        }
        return client;
    }

    /** True once the model is loaded and served. */
    public synchronized boolean started() {
        return client != null;
    }

    /** Chat requests the model has answered so far. */
    public synchronized long requests() {
        return backend == null ? 0 : backend.requests();
    }

    @Override
    public synchronized void close() {
        closed = true;
        try {
            if (server != null) server.close();
        } finally {
            if (policy != null) policy.close();
            server = null;
            policy = null;
        }
    }
}
