package dev.toolcoach.openai;

import akka.NotUsed;
import akka.http.javadsl.model.ContentTypes;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.model.HttpResponse;
import akka.http.javadsl.model.MediaTypes;
import akka.http.javadsl.model.StatusCodes;
import akka.http.javadsl.model.headers.RawHeader;
import akka.http.javadsl.server.AllDirectives;
import akka.http.javadsl.server.PathMatchers;
import akka.http.javadsl.server.Route;
import akka.http.javadsl.unmarshalling.Unmarshaller;
import akka.japi.Pair;
import akka.stream.Materializer;
import akka.stream.OverflowStrategy;
import akka.stream.javadsl.Source;
import akka.stream.javadsl.SourceQueueWithComplete;
import akka.util.ByteString;
import dev.toolcoach.lm.ContextTooLong;
import dev.toolcoach.openai.http.BearerToken;
import dev.toolcoach.openai.http.LoopbackOrigin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP face of {@link ChatCompletions}: {@code GET /v1/models} and {@code POST /v1/chat/completions}
 * (JSON, or server-sent events when {@code stream} is true), with an optional bearer key and a
 * bounded number of generations in flight.
 */
final class ChatRoutes extends AllDirectives {

    private static final Logger LOG = LoggerFactory.getLogger(ChatRoutes.class);
    private static final int RETRY_AFTER_SECONDS = 1;

    private final ChatCompletions completions;
    private final ServerSettings settings;
    private final ExecutorService generators;
    private final Materializer materializer;
    private final Semaphore slots;
    private final AtomicLong busyRejections = new AtomicLong();
    private volatile int boundPort;

    ChatRoutes(ChatCompletions completions, ServerSettings settings, ExecutorService generators, Materializer materializer) {
        this.completions = completions;
        this.settings = settings;
        this.generators = generators;
        this.materializer = materializer;
        this.slots = new Semaphore(settings.maxConcurrentGenerations());
    }

    long busyRejections() {
        return busyRejections.get();
    }

    /** The API's routes; {@link #authorised} checks their callers, on the request head (see {@code GuardedServer}). */
    Route route() {
        return concat(
                path(PathMatchers.segment("v1").slash("models"), () -> get(() -> complete(json(200, completions.models())))),
                path(PathMatchers.segment("v1").slash("chat").slash("completions"), () -> post(() ->
                        entity(Unmarshaller.entityToString(), body -> completeWithFuture(chat(body))))));
    }

    /** The port the server is bound to, which a request's Host must name when there is no key ({@link LoopbackOrigin}). */
    void bound(int port) {
        boundPort = port;
    }

    /** {@code inner} for a caller with the key (or, without a key, a client of this machine); 401 or 403 for others. */
    Route authorised(Route inner) {
        if (settings.apiKey().isEmpty()) {
            // no key means loopback only (ServerSettings.checkExposure): this machine's own clients, no browser page
            return optionalHeaderValueByName("Host", host -> optionalHeaderValueByName("Origin", origin ->
                    LoopbackOrigin.refusal(host, origin, boundPort)
                            .map(why -> (Route) complete(error(403, "invalid_request_error", why)))
                            .orElse(inner)));
        }
        return optionalHeaderValueByName("Authorization", header -> {
            if (header.map(this::rightKey).orElse(false)) {
                return inner;
            }
            String why = header.isEmpty() ? "no API key given (Authorization: Bearer ...)" : "invalid API key";
            return complete(error(401, "invalid_request_error", why));
        });
    }

    private boolean rightKey(String authorization) {
        return BearerToken.matches(authorization, settings.apiKey());
    }

    /**
     * Any failure, {@code Error}s included, becomes a 500: a {@code StackOverflowError} left to reach Akka's
     * dispatcher trips {@code akka.jvm-exit-on-fatal-error} and ends the whole process. What a client reads of a
     * failure never quotes its input nor names a Java class: a 400 carries our own one-line reason, a 500 only that
     * it failed (the log has the rest).
     */
    private CompletionStage<HttpResponse> chat(String body) {
        try {
            return startChat(body);
        } catch (Throwable t) {
            LOG.error("chat request failed", t);
            return CompletableFuture.completedFuture(error(500, "server_error", "the request failed"));
        }
    }

    private CompletionStage<HttpResponse> startChat(String body) {
        ChatRequest request;
        BackendRequest backendRequest;
        try {
            request = completions.read(body);
            backendRequest = completions.validate(request);
        } catch (RejectedRequest e) {
            return CompletableFuture.completedFuture(error(e.status(), e.type(), e.getMessage()));
        } catch (IllegalArgumentException e) {
            // a value a type below refused: its message is not written for clients, so it is not shown
            LOG.debug("chat request refused", e);
            return CompletableFuture.completedFuture(error(400, "invalid_request_error", "request body is not a valid chat request"));
        }
        if (!slots.tryAcquire()) {
            busyRejections.incrementAndGet();
            return CompletableFuture.completedFuture(error(429, "rate_limit_error",
                    "all " + settings.maxConcurrentGenerations() + " generation slots are busy")
                    .addHeader(RawHeader.create("Retry-After", Integer.toString(RETRY_AFTER_SECONDS))));
        }
        try {
            return request.streaming() ? streamed(backendRequest) : whole(backendRequest);
        } catch (Throwable t) {
            slots.release();
            throw t;
        }
    }

    private CompletionStage<HttpResponse> whole(BackendRequest request) {
        return CompletableFuture.supplyAsync(() -> completions.complete(request), generators)
                .handle((reply, failure) -> {
                    slots.release();
                    return failure == null ? json(200, reply) : backendFailure(failure);
                });
    }

    /**
     * Streams chunks as SSE; generation runs on a generator thread, pushing into a backpressured queue. The 200 goes out
     * with the first chunk, so a request the backend refuses before writing anything (a prompt longer than the model's
     * context) still gets its 400.
     */
    private CompletionStage<HttpResponse> streamed(BackendRequest request) {
        Pair<SourceQueueWithComplete<ByteString>, Source<ByteString, NotUsed>> queue =
                Source.<ByteString>queue(64, OverflowStrategy.backpressure()).preMaterialize(materializer);
        SourceQueueWithComplete<ByteString> events = queue.first();
        HttpResponse stream = HttpResponse.create()
                .withEntity(HttpEntities.createChunked(MediaTypes.TEXT_EVENT_STREAM.toContentType(), queue.second()));
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        CompletableFuture.runAsync(() -> {
            boolean released = false;
            try {
                completions.stream(request, chunk -> {
                    response.complete(stream);
                    offer(events, event(OpenAiJson.write(chunk)));
                });
                // the generation is over: a client that reads [DONE] and asks again at once must find its slot free
                slots.release();
                released = true;
                offer(events, event("[DONE]"));
            } catch (Throwable e) {
                if (!response.isDone()) { // only this thread completes it: nothing was sent yet
                    response.complete(backendFailure(e));
                } else {
                    LOG.warn("streamed generation failed: {}", e.toString());
                    // the 200 header is already sent, so the error travels in the stream as OpenAI does it
                    events.offer(event(OpenAiJson.write(ApiError.of("generation failed", "server_error", null))));
                }
            } finally {
                if (!released) slots.release();
                events.complete();
            }
        }, generators);
        return response;
    }

    private static void offer(SourceQueueWithComplete<ByteString> events, ByteString event) {
        // waits for the client to take the previous event: a slow reader slows the generator
        events.offer(event).toCompletableFuture().join();
    }

    private static ByteString event(String data) {
        return ByteString.fromString("data: " + data + "\n\n");
    }

    /**
     * A backend's refusal (ChatBackend: an {@link IllegalArgumentException}) is a 400 with its reason, a context too long
     * with OpenAI's code for it; anything else a 500.
     */
    private HttpResponse backendFailure(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ContextTooLong) {
            return json(400, ApiError.of(cause.getMessage(), "invalid_request_error", ApiError.CONTEXT_LENGTH_EXCEEDED));
        }
        if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
            return error(400, "invalid_request_error", cause.getMessage());
        }
        LOG.warn("generation failed: {}", cause.toString());
        return error(500, "server_error", "generation failed");
    }

    private static HttpResponse json(int status, Object body) {
        return HttpResponse.create().withStatus(StatusCodes.get(status))
                .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, OpenAiJson.write(body)));
    }

    private static HttpResponse error(int status, String type, String message) {
        return json(status, ApiError.of(message, type, null));
    }
}
