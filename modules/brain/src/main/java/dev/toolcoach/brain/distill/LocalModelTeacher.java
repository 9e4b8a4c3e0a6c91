package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.openai.GeneratorBackend;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.tasks.TaskExample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A local Hugging Face model folder as teacher. The folder is served in this JVM the way
 * {@code coach-node serve} serves it ({@link LocalPolicy} behind {@link OpenAiServer} and
 * {@link GeneratorBackend}, on 127.0.0.1 and a free port) and asked through an {@link OpenAiTeacher}, so a
 * local teacher is driven exactly like an endpoint teacher. The model is loaded and the server started on
 * the first rollout only: a run answered from the trace cache never loads it. {@link #close()} stops the
 * server and frees the model.
 *
 * <p>The id names the folder and a digest of its files ({@code *.json} up to 1 MiB by content, the others
 * — weights, a large tokenizer — by name, size and modification time), never the server's port, so a second
 * run on the same folder hits the cache and a changed model misses it.
 */
public final class LocalModelTeacher implements Teacher, AutoCloseable {

    private static final long HASHED_JSON_LIMIT = 1 << 20;
    /** CPU generation of a long reply can take minutes; the server allows 600 s as well. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(600);

    private final Path folder;
    private final Student student;
    private final List<ToolSpec> tools;
    private final String id;
    private LocalPolicy policy;
    private GeneratorBackend backend;
    private OpenAiServer server;
    private OpenAiTeacher endpoint;
    private boolean closed;

    /**
     * @param folder a Hugging Face model folder (config.json, safetensors, tokenizer.json)
     * @param tools  the student's tools, offered to the teacher as OpenAI function definitions
     * @throws ModelLoadException when the folder has no config.json
     */
    public LocalModelTeacher(Path folder, Student student, List<ToolSpec> tools) {
        this.folder = folder.toAbsolutePath().normalize();
        if (!Files.isRegularFile(this.folder.resolve("config.json"))) {
            throw new ModelLoadException(this.folder.resolve("config.json"), "file not found");
        }
        this.student = student;
        this.tools = List.copyOf(tools);
        this.id = "local:" + this.folder + "#" + digest(this.folder);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        return served().generatorFor(example, format, systemPrompt);
    }

    @Override
    public void checkUsable() {
        OpenAiTeacher e = endpointIfStarted();
        if (e != null) e.checkUsable();
    }

    /** True once the model is loaded and served (the first rollout asked for it). */
    public synchronized boolean started() {
        return endpoint != null;
    }

    /** Chat requests the teacher model has answered so far. */
    public synchronized long requests() {
        return backend == null ? 0 : backend.requests();
    }

    private synchronized OpenAiTeacher endpointIfStarted() {
        return endpoint;
    }

    private synchronized OpenAiTeacher served() {
        if (closed) throw new IllegalStateException("teacher " + id + " is closed");
        if (endpoint == null) {
            policy = LocalPolicy.load(folder, null, null, 1);
            // the teacher writes in its own native format; the server hands its calls on as OpenAI tool calls
            backend = new GeneratorBackend(modelId(), policy.generator(), policy.tokenizer(), policy.chatFormat(),
                    NativeActionFormat.of(policy.model()));
            try {
                server = OpenAiServer.start(backend, ServerSettings.loopback(0).withMaxConcurrentGenerations(1));
            } catch (RuntimeException e) {
                policy.close();
                policy = null;
                throw e;
            }
            OpenAiConfig config = OpenAiConfig.of(server.baseUrl(), modelId()).withRequestTimeout(REQUEST_TIMEOUT)
                    .withRetries(0, Duration.ofMillis(500), Duration.ofSeconds(1)).withMaxConcurrency(1);
            endpoint = new OpenAiTeacher(new OpenAiClient(config), student, tools);
        }
        return endpoint;
    }

    private String modelId() {
        return folder.getFileName().toString();
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

    private static String digest(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            List<String> parts = new ArrayList<>();
            for (Path f : files.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList()) {
                String name = f.getFileName().toString();
                long size = Files.size(f);
                parts.add(name);
                parts.add(name.endsWith(".json") && size <= HASHED_JSON_LIMIT ? Files.readString(f)
                        : size + "@" + Files.getLastModifiedTime(f).toMillis());
            }
            return TraceCache.key(parts.toArray(String[]::new)).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the teacher folder " + folder + ": " + e.getMessage(), e);
        }
    }
}
