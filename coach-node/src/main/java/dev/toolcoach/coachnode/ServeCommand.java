package dev.toolcoach.coachnode;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.openai.GeneratorBackend;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.policy.NativeActionFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves a local model (HF folder, or llama2.c checkpoint with its tokenizer, plus an optional PEFT
 * adapter) as an OpenAI-compatible endpoint until SIGTERM / Ctrl-C, then unbinds and frees the model.
 * Prints one line with the base URL on stdout once it is listening.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve a local model on /v1/models and /v1/chat/completions (OpenAI-compatible).")
public final class ServeCommand implements Callable<Integer> {

    @Mixin
    DeviceOption device;

    static final int INPUT_ERROR = 2;
    static final int START_ERROR = 3;
    private static final long SHUTDOWN_WAIT_SECONDS = 20;

    @Option(names = "--model", required = true, description = "HF model folder or llama2.c .bin checkpoint")
    Path model;

    @Option(names = "--tokenizer", description = "tokenizer file; default: tokenizer.json in the folder / tokenizer.bin beside the .bin")
    Path tokenizer;

    @Option(names = "--adapter", description = "PEFT LoRA adapter folder (adapter_config.json, adapter_model.safetensors)")
    Path adapter;

    @Option(names = "--host", description = "interface to bind (default: toolcoach.openai.server.host, 127.0.0.1); "
            + "any but loopback needs an API key")
    String host;

    @Option(names = "--port", description = "TCP port, 0 for any free one (default: toolcoach.openai.server.port, 8000)")
    Integer port;

    @Option(names = "--api-key", description = "bearer key every request must carry (default: $TOOLCOACH_SERVE_API_KEY, "
            + "else toolcoach.openai.server.api-key); without one serve binds loopback only")
    String apiKey;

    @Option(names = "--max-batch", defaultValue = "8", description = "sequences the engine decodes together (default ${DEFAULT-VALUE})")
    int maxBatch;

    @Option(names = "--model-id", description = "model name clients use (default: the model file or folder name)")
    String modelId;

    @Option(names = "--action-format", paramLabel = "NAME", description = "the tool-call format the model writes: "
            + "tool-n1, tool-n1-compact, hermes, llama3-json (default: the model family's native format when the model "
            + "has its own chat template, else tool-n1)")
    String actionFormat;

    @Spec
    CommandSpec spec;

    private final CompletableFuture<Void> stopRequested = new CompletableFuture<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() {
        ServerSettings settings;
        try {
            if (maxBatch < 1) throw new IllegalArgumentException("--max-batch must be >= 1, got " + maxBatch);
            settings = settings(ServerSettings.fromConfig(ConfigFactory.load()));
            settings.checkExposure();
        } catch (IllegalArgumentException e) {
            return fail(INPUT_ERROR, e.getMessage());
        }
        ActionFormat chosen;
        try {
            chosen = actionFormat == null ? null : ActionFormat.named(actionFormat);
        } catch (IllegalArgumentException e) {
            return fail(INPUT_ERROR, "--action-format: " + e.getMessage());
        }
        LocalPolicy policy;
        try {
            policy = LocalPolicy.load(model, tokenizer, adapter, maxBatch, device.value());
        } catch (ModelLoadException | IllegalArgumentException e) {
            return fail(INPUT_ERROR, e.getMessage());
        }
        ActionFormat format = chosen != null ? chosen : NativeActionFormat.of(policy.model());
        try (policy; OpenAiServer server = OpenAiServer.start(backend(policy, format), settings)) {
            Thread hook = new Thread(this::stopAndWait, "serve-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            PrintWriter out = spec.commandLine().getOut();
            out.println("serving " + id() + " at " + server.baseUrl() + " (tool calls: " + format.formatName() + ")");
            out.flush();
            if (settings.apiKey().isEmpty()) {
                spec.commandLine().getErr().println("serve: no API key set, so any local user or process can use this server");
                spec.commandLine().getErr().flush();
            }
            stopRequested.join();
            removeHook(hook);
        } catch (IllegalStateException e) {
            return fail(START_ERROR, e.getMessage());
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    /** The configured settings with the command line's options on top; the engine's batch bounds concurrent generations. */
    ServerSettings settings(ServerSettings configured) {
        ServerSettings s = configured.withMaxConcurrentGenerations(maxBatch);
        if (host != null) s = s.withHost(host);
        if (port != null) s = s.withPort(port);
        if (apiKey != null) s = s.withApiKey(apiKey);
        return s;
    }

    /** Asks a running {@code serve} to stop; {@link #call()} then returns 0 once everything is closed. */
    public void stop() {
        stopRequested.complete(null);
    }

    /** The JVM exits when its shutdown hooks return, so the hook waits for the cleanup it triggered. */
    private void stopAndWait() {
        stop();
        try {
            stopped.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook itself asked us to stop; it is running and needs no removal
        }
    }

    private GeneratorBackend backend(LocalPolicy policy, ActionFormat format) {
        return new GeneratorBackend(id(), policy.generator(), policy.tokenizer(), policy.chatFormat(), format);
    }

    private String id() {
        return modelId != null ? modelId : model.getFileName().toString();
    }

    private int fail(int code, String message) {
        spec.commandLine().getErr().println("serve: " + message);
        spec.commandLine().getErr().flush();
        return code;
    }
}
