package dev.toolcoach.cluster.management;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Extension;
import akka.actor.typed.ExtensionId;
import akka.http.javadsl.ServerBinding;
import akka.http.javadsl.model.ContentTypes;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.model.HttpHeader;
import akka.http.javadsl.model.HttpRequest;
import akka.http.javadsl.model.StatusCodes;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.Route;
import akka.management.javadsl.AkkaManagement;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import dev.toolcoach.openai.http.ConnectionLimits;
import dev.toolcoach.openai.http.GuardedServer;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A node's management HTTP server: every route Akka Management collects from its providers ({@code /ready},
 * {@code /alive}, {@code /cluster/members}, {@code /metrics}, {@code /jobs}, ...), served here rather than by
 * {@code AkkaManagement.start()} so that every request that changes state passes {@link ManagementWrites} first, the
 * providers' own and Akka's alike, and so that it is bound as every ToolCoach server is ({@link GuardedServer}: slow or
 * piled-up connections cannot starve the others). One per actor system; {@link #url} is where it answers.
 */
public final class ManagementServer implements Extension {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The node's management server. */
    public static final ExtensionId<ManagementServer> ID = new ExtensionId<>() {
        @Override
        public ManagementServer createExtension(ActorSystem<?> system) {
            return new ManagementServer(system);
        }
    };

    private final ActorSystem<?> system;
    private volatile int boundPort;
    private volatile URI url;

    private ManagementServer(ActorSystem<?> system) {
        this.system = system;
    }

    public static ManagementServer get(ActorSystem<?> system) {
        return ID.apply(system);
    }

    /**
     * Binds {@code akka.management.http} ({@code bind-hostname}/{@code bind-port}, else {@code hostname}/{@code port}).
     *
     * @return the base URL it answers at
     * @throws IllegalStateException when it cannot bind within {@code timeout}, with the reason
     */
    public synchronized URI start(Duration timeout) {
        if (url != null) return url;
        Config http = system.settings().config().getConfig("akka.management.http");
        String bindHost = http.getString("bind-hostname").isBlank() ? http.getString("hostname") : http.getString("bind-hostname");
        String bindPort = http.getString("bind-port").isBlank() ? http.getString("port") : http.getString("bind-port");
        ManagementWrites writes = ManagementWrites.fromConfig(system.settings().config(), bindHost);
        ServerBinding binding;
        try {
            binding = GuardedServer.bind(system, bindHost, Integer.parseInt(bindPort), AkkaManagement.get(system).getRoutes(),
                            ConnectionLimits.fromConfig(system.settings().config()), routes -> guarded(routes, writes))
                    .toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        }
        boundPort = binding.localAddress().getPort();
        String host = http.getString("hostname");
        url = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + boundPort
                + (http.getString("base-path").isBlank() ? "" : "/" + http.getString("base-path")));
        return url;
    }

    /** Where the server answers, e.g. {@code http://127.0.0.1:8558}. */
    public URI url() {
        URI u = url;
        if (u == null) throw new IllegalStateException("the management server has not started");
        return u;
    }

    private Route guarded(Route routes, ManagementWrites writes) {
        return Directives.extractRequest(request -> writes.refusal(request.method().value(), request.getUri().path(),
                        header(request, "Authorization"),
                        header(request, "Host"), header(request, "Origin"), boundPort)
                .<Route>map(refusal -> Directives.complete(StatusCodes.get(refusal.status()),
                        HttpEntities.create(ContentTypes.APPLICATION_JSON, error(refusal.message()))))
                .orElse(routes));
    }

    private static Optional<String> header(HttpRequest request, String name) {
        return request.getHeader(name).map(HttpHeader::value);
    }

    private static String error(String message) {
        try {
            return JSON.writeValueAsString(Map.of("error", message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
