package dev.toolcoach.openai;

import akka.actor.ActorSystem;
import akka.http.javadsl.ServerBinding;
import akka.stream.Materializer;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.openai.http.ConnectionLimits;
import dev.toolcoach.openai.http.GuardedServer;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenAI-compatible HTTP server ({@code /v1/models}, {@code /v1/chat/completions}) in front of a
 * {@link ChatBackend}. Runs its own small actor system; {@link #close()} unbinds and stops it.
 */
public final class OpenAiServer implements AutoCloseable {

    /** Request bodies above this are refused with 413 before they are read (a long conversation is well under it). */
    public static final String MAX_REQUEST_BODY = "4m";

    // generation can take minutes; Akka's 20 s default would cut long replies off. A slow client is cut by
    // toolcoach.http's head and body timeouts (GuardedServer), not by these.
    private static final String SERVER_CONFIG = """
            akka.http.server.request-timeout = 600s
            akka.http.server.idle-timeout = 600s
            akka.http.server.parsing.max-content-length = %s
            # a malformed request gets its 400; a log line for each would let a flood of them fill the log
            akka.http.server.parsing.error-logging-verbosity = off
            akka.loggers = ["akka.event.slf4j.Slf4jLogger"]
            akka.logging-filter = "akka.event.slf4j.Slf4jLoggingFilter"
            akka.loglevel = WARNING
            akka.stdout-loglevel = OFF
            """.formatted(MAX_REQUEST_BODY);

    private final ActorSystem system;
    private final ServerBinding binding;
    private final ExecutorService generators;
    private final ChatRoutes routes;

    private OpenAiServer(ActorSystem system, ServerBinding binding, ExecutorService generators, ChatRoutes routes) {
        this.system = system;
        this.binding = binding;
        this.generators = generators;
        this.routes = routes;
    }

    /**
     * Binds and starts serving; fails with a clear message when the address is taken.
     *
     * @throws IllegalArgumentException when the settings would expose the model off loopback without an API key
     */
    public static OpenAiServer start(ChatBackend backend, ServerSettings settings) {
        settings.checkExposure();
        Config config = ConfigFactory.parseString(SERVER_CONFIG).withFallback(ConfigFactory.load());
        ActorSystem system = ActorSystem.create("openai-server", config);
        ExecutorService generators = Executors.newFixedThreadPool(settings.maxConcurrentGenerations(), daemonThreads());
        ChatRoutes routes = new ChatRoutes(new ChatCompletions(backend, Clock.systemUTC()), settings, generators,
                Materializer.matFromSystem(system));
        try {
            ServerBinding binding = GuardedServer.bind(system, settings.host(), settings.port(), routes.route(),
                    ConnectionLimits.fromConfig(config), routes::authorised).toCompletableFuture().get(30, TimeUnit.SECONDS);
            routes.bound(binding.localAddress().getPort());
            return new OpenAiServer(system, binding, generators, routes);
        } catch (Exception e) {
            generators.shutdownNow();
            system.terminate();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException("cannot serve on " + settings.host() + ":" + settings.port() + ": "
                    + cause.getMessage(), cause);
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "openai-generate-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    public int port() {
        return binding.localAddress().getPort();
    }

    /** The base URL clients use, e.g. {@code http://127.0.0.1:8000/v1}. */
    public String baseUrl() {
        return "http://" + binding.localAddress().getHostString() + ":" + port() + "/v1";
    }

    /** Requests turned away with 429 because every generation slot was busy. */
    public long busyRejections() {
        return routes.busyRejections();
    }

    @Override
    public void close() {
        try {
            binding.terminate(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // shutting down anyway; the actor system's termination below releases the port
        } finally {
            generators.shutdownNow();
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
