package dev.toolcoach.openai.http;

import akka.actor.ClassicActorSystemProvider;
import akka.http.javadsl.Http;
import akka.http.javadsl.IncomingConnection;
import akka.http.javadsl.ServerBinding;
import akka.http.javadsl.model.ContentTypes;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.model.StatusCode;
import akka.http.javadsl.model.StatusCodes;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.ExceptionHandler;
import akka.http.javadsl.server.Route;
import akka.http.scaladsl.model.EntityStreamSizeException;
import akka.stream.Materializer;
import akka.stream.javadsl.Flow;
import akka.stream.javadsl.Sink;
import akka.stream.javadsl.Source;
import scala.concurrent.duration.FiniteDuration;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * Binds a route the way every ToolCoach HTTP server is bound ({@code serve}, a node's management port): each accepted
 * connection passes the {@link ConnectionGate} (limits in all and per client address, the oldest idle connection making
 * room) and a {@link HeadWatchdog} (a whole request head within {@code head-timeout} whenever none is in progress), and
 * each request's body must arrive within {@code body-timeout} (408). A server's credentials are checked on the request's
 * head, before its body is read: a client without them cannot hold a connection (and the server's patience) by sending
 * a body slowly. Akka's own settings ({@code akka.http.server}: request and idle timeouts, body size) still apply.
 */
public final class GuardedServer {

    private GuardedServer() {
    }

    /** Binds {@code route} on {@code host:port} (0: any free port), with no credentials to check. */
    public static CompletionStage<ServerBinding> bind(ClassicActorSystemProvider system, String host, int port, Route route,
                                                      ConnectionLimits limits) {
        return bind(system, host, port, route, limits, UnaryOperator.identity());
    }

    /**
     * Binds {@code route} on {@code host:port} (0: any free port) behind {@code credentials}: a route over the request's
     * head that answers a request without them (401, 403) and passes the others to {@code route}, before any body is read.
     */
    public static CompletionStage<ServerBinding> bind(ClassicActorSystemProvider system, String host, int port, Route route,
                                                      ConnectionLimits limits, UnaryOperator<Route> credentials) {
        Materializer materializer = Materializer.matFromSystem(system);
        ConnectionGate gate = new ConnectionGate(limits);
        long maxBody = system.classicSystem().settings().config().getBytes("akka.http.server.parsing.max-content-length");
        Flow<akka.http.javadsl.model.HttpRequest, akka.http.javadsl.model.HttpResponse, akka.NotUsed> handler =
                credentials.apply(withBodyDeadline(route, limits, maxBody)).flow(system);
        Source<IncomingConnection, CompletionStage<ServerBinding>> connections = Http.get(system).newServerAt(host, port).connectionSource();
        return connections.to(Sink.foreach(connection -> gate.admit(connection.remoteAddress().getAddress()).ifPresentOrElse(
                        ticket -> connection.handleWith(HeadWatchdog.watching(ticket, limits.headTimeout(), handler), materializer),
                        () -> connection.handleWith(Flow.fromSinkAndSourceCoupled(Sink.cancelled(), Source.empty()), materializer))))
                .run(materializer);
    }

    /**
     * The body read whole within the deadline before the route sees the request. A body declared larger than the server
     * takes is answered 413 unread (reading it only to fail would abort the connection, and its client lose the answer).
     */
    private static Route withBodyDeadline(Route route, ConnectionLimits limits, long maxBody) {
        long millis = limits.bodyTimeout().toMillis();
        ExceptionHandler late = ExceptionHandler.newBuilder()
                .match(TimeoutException.class, e -> error(StatusCodes.REQUEST_TIMEOUT,
                        "the request body did not arrive within " + limits.bodyTimeout().toSeconds() + " s"))
                .match(EntityStreamSizeException.class, e -> error(StatusCodes.PAYLOAD_TOO_LARGE,
                        "the request body is larger than this server takes"))
                .build();
        Route tooLarge = error(StatusCodes.PAYLOAD_TOO_LARGE, "the request body is larger than this server takes");
        return Directives.extractRequestEntity(entity -> entity.getContentLengthOption().orElse(0L) > maxBody ? tooLarge
                : Directives.handleExceptions(late, () -> Directives.toStrictEntity(
                        FiniteDuration.create(millis, TimeUnit.MILLISECONDS), () -> route)));
    }

    private static Route error(StatusCode status, String message) {
        return Directives.complete(status, HttpEntities.create(ContentTypes.APPLICATION_JSON, "{\"error\": \"" + message + "\"}"));
    }
}
