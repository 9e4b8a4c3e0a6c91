package dev.toolcoach.brain.distill;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.brain.endpoint.ServedModel;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.tasks.TaskExample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A local Hugging Face model folder as teacher. The folder is served in this JVM ({@link ServedModel}) and
 * asked through an {@link OpenAiTeacher}, so a local teacher is driven exactly like an endpoint teacher. The model is loaded and the server started on
 * the first rollout only: a run answered from the trace cache never loads it. {@link #close()} stops the
 * server and frees the model.
 *
 * <p>The id names the folder and a digest of its files ({@code *.json} up to 1 MiB by content, the others
 * — weights, a large tokenizer — by name, size and modification time), never the server's port, so a second
 * run on the same folder hits the cache and a changed model misses it.
 */
public final class LocalModelTeacher implements Teacher, AutoCloseable {

    private static final long HASHED_JSON_LIMIT = 1 << 20;

    private final ServedModel served;
    private final Student student;
    private final List<ToolSpec> tools;
    private final String id;
    private OpenAiTeacher endpoint;

    /**
     * @param folder a Hugging Face model folder (config.json, safetensors, tokenizer.json)
     * @param tools  the student's tools, offered to the teacher as OpenAI function definitions
     * @param device where the teacher computes
     * @throws ModelLoadException when the folder has no config.json
     */
    public LocalModelTeacher(Path folder, Student student, List<ToolSpec> tools, ComputeDevice device) {
        this.served = new ServedModel(folder, device);
        this.student = student;
        this.tools = List.copyOf(tools);
        this.id = "local:" + served.folder() + "#" + digest(served.folder());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        return endpoint().generatorFor(example, format, systemPrompt);
    }

    @Override
    public void checkUsable() {
        OpenAiTeacher e = endpointIfStarted();
        if (e != null) e.checkUsable();
    }

    /** True once the model is loaded and served (the first rollout asked for it). */
    public boolean started() {
        return served.started();
    }

    /** Chat requests the teacher model has answered so far. */
    public long requests() {
        return served.requests();
    }

    private synchronized OpenAiTeacher endpointIfStarted() {
        return endpoint;
    }

    private synchronized OpenAiTeacher endpoint() {
        // the teacher writes in its own native format; the server hands its calls on as OpenAI tool calls
        OpenAiClient client = served.client(); // refuses once the teacher is closed
        if (endpoint == null) endpoint = new OpenAiTeacher(client, student, tools);
        return endpoint;
    }

    @Override
    public void close() {
        served.close();
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
