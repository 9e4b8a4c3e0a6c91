package dev.toolcoach.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.openai.OpenAiException.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * A client for OpenAI-compatible chat-completions endpoints (OpenAI, vLLM, Ollama, or ToolCoach's
 * own server): plain and streaming completions, with retries on 429/5xx and a cap on requests in
 * flight. Thread-safe; one instance is meant to be shared.
 */
public final class OpenAiClient {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiClient.class);

    private final OpenAiConfig config;
    private final RetryPolicy retryPolicy;
    private final Semaphore inFlight;
    private final HttpClient http;

    public OpenAiClient(OpenAiConfig config) {
        this.config = config;
        this.retryPolicy = config.retryPolicy();
        this.inFlight = new Semaphore(config.maxConcurrency(), true);
        this.http = HttpClient.newBuilder()
                .connectTimeout(config.requestTimeout())
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public OpenAiConfig config() {
        return config;
    }

    /** One non-streaming completion; the reply has at least one choice. */
    public ChatResponse chat(ChatRequest request) {
        ChatRequest prepared = prepare(request, false);
        URI uri = config.endpoint("/chat/completions");
        try (Exchange exchange = exchange(post(uri, prepared), uri)) {
            ChatResponse reply = parse(exchange.readAll(), ChatResponse.class, uri);
            if (reply.choices().isEmpty()) {
                throw new OpenAiException(Kind.NO_CHOICES, 200, "reply from " + uri + " has no choices", null);
            }
            return reply;
        }
    }

    /**
     * One streaming completion: each chunk goes to {@code onChunk} as it arrives, and the assembled
     * reply is returned at the end of the stream.
     */
    public ChatResponse chatStreaming(ChatRequest request, Consumer<ChatChunk> onChunk) {
        ChatRequest prepared = prepare(request, true);
        URI uri = config.endpoint("/chat/completions");
        try (Exchange exchange = exchange(post(uri, prepared), uri)) {
            StreamAccumulator accumulator = new StreamAccumulator();
            SseReader events = new SseReader(new BufferedReader(
                    new InputStreamReader(exchange.body, StandardCharsets.UTF_8)));
            String data;
            boolean done = false;
            while ((data = events.nextData()) != null) {
                if (data.equals("[DONE]")) {
                    done = true;
                    break;
                }
                JsonNode node = parse(data, JsonNode.class, uri);
                if (node.has("error")) {
                    throw new OpenAiException(Kind.STREAM_ERROR, 200, "stream from " + uri + " failed: "
                            + node.path("error").path("message").asText(node.get("error").toString()), null);
                }
                ChatChunk chunk = parse(data, ChatChunk.class, uri);
                accumulator.accept(chunk);
                onChunk.accept(chunk);
            }
            if (!done) {
                throw new OpenAiException(Kind.CONNECTION_LOST, 200, "stream from " + uri + " ended without [DONE]", null);
            }
            if (!accumulator.sawChoice()) {
                throw new OpenAiException(Kind.NO_CHOICES, 200, "stream from " + uri + " has no choices", null);
            }
            return accumulator.result();
        } catch (TimedBody.IdleTimeout e) {
            throw new OpenAiException(Kind.TIMEOUT, 200, "stream from " + uri + " stalled: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new OpenAiException(Kind.CONNECTION_LOST, 200, "stream from " + uri + " broke: " + e.getMessage(), e);
        }
    }

    /** The models the endpoint serves. */
    public ModelList models() {
        URI uri = config.endpoint("/models");
        try (Exchange exchange = exchange(authorised(HttpRequest.newBuilder(uri)).GET().build(), uri)) {
            return parse(exchange.readAll(), ModelList.class, uri);
        }
    }

    private ChatRequest prepare(ChatRequest request, boolean stream) {
        ChatRequest r = request.withStream(stream);
        if (r.model() == null || r.model().isBlank()) {
            if (config.model().isBlank()) {
                throw new IllegalArgumentException("no model: the request names none and the client config has none");
            }
            r = r.withModel(config.model());
        }
        return r;
    }

    private HttpRequest post(URI uri, ChatRequest request) {
        return authorised(HttpRequest.newBuilder(uri))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(OpenAiJson.write(request)))
                .build();
    }

    private HttpRequest.Builder authorised(HttpRequest.Builder b) {
        b.timeout(config.requestTimeout());
        if (!config.apiKey().isEmpty()) b.header("Authorization", "Bearer " + config.apiKey());
        return b;
    }

    /**
     * Sends a request, retrying 429/5xx replies, and returns the open 2xx reply. The concurrency
     * permit is held until the returned exchange is closed, so a stream counts as in flight until read.
     */
    private Exchange exchange(HttpRequest request, URI uri) {
        for (int attempt = 0; ; attempt++) {
            acquirePermit(uri);
            HttpResponse<Flow.Publisher<List<ByteBuffer>>> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofPublisher());
            } catch (RuntimeException | Error e) {
                inFlight.release();
                throw e;
            } catch (Exception e) {
                inFlight.release();
                throw transportFailure(e, uri);
            }
            int status = response.statusCode();
            TimedBody body = new TimedBody(config.requestTimeout());
            response.body().subscribe(body);
            if (status / 100 == 2) return new Exchange(body, inFlight, uri, config.requestTimeout());
            String errorBody = readQuietly(body);
            inFlight.release();
            if (RetryPolicy.retryable(status) && attempt < retryPolicy.maxRetries()) {
                Duration wait = retryPolicy.delayBefore(attempt + 1,
                        response.headers().firstValue("Retry-After"), ZonedDateTime.now());
                LOG.warn("{} answered {}; retry {}/{} in {} ms", uri, status, attempt + 1,
                        retryPolicy.maxRetries(), wait.toMillis());
                pause(wait, uri);
                continue;
            }
            throw httpFailure(status, errorBody, uri, attempt);
        }
    }

    private void acquirePermit(URI uri) {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpenAiException(Kind.INTERRUPTED, 0, "interrupted waiting to call " + uri, e);
        }
    }

    private static void pause(Duration wait, URI uri) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpenAiException(Kind.INTERRUPTED, 0, "interrupted waiting to retry " + uri, e);
        }
    }

    private OpenAiException transportFailure(Exception e, URI uri) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new OpenAiException(Kind.INTERRUPTED, 0, "interrupted calling " + uri, e);
        }
        if (e instanceof HttpConnectTimeoutException || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException) {
            return new OpenAiException(Kind.UNREACHABLE, 0, "cannot reach " + uri + " ("
                    + describe(e) + ") - is the server running and the base URL right?", e);
        }
        if (e instanceof HttpTimeoutException) {
            return new OpenAiException(Kind.TIMEOUT, 0, "no reply from " + uri + " within "
                    + config.requestTimeout().toMillis() + " ms", e);
        }
        return new OpenAiException(Kind.CONNECTION_LOST, 0, "connection to " + uri + " failed: " + describe(e), e);
    }

    private static String describe(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static OpenAiException httpFailure(int status, String body, URI uri, int retries) {
        String detail = errorMessage(body);
        String tried = retries > 0 ? " after " + retries + " retries" : "";
        Kind kind;
        String what;
        if (status == 401 || status == 403) {
            kind = Kind.UNAUTHORIZED;
            what = "rejected the API key (" + status + ") - set OPENAI_API_KEY or toolcoach.openai.client.api-key";
        } else if (status == 429) {
            kind = Kind.RATE_LIMITED;
            what = "is rate limiting (429)" + tried;
        } else if (status >= 500) {
            kind = Kind.SERVER_ERROR;
            what = "failed with " + status + tried;
        } else if (ApiError.CONTEXT_LENGTH_EXCEEDED.equals(errorCode(body))) {
            kind = Kind.CONTEXT_LENGTH_EXCEEDED;
            what = "cannot take a conversation this long (" + status + ")";
        } else {
            kind = Kind.REQUEST_REJECTED;
            what = "rejected the request (" + status + ")";
        }
        return new OpenAiException(kind, status, uri + " " + what + (detail.isEmpty() ? "" : ": " + detail), null);
    }

    /** The code of an OpenAI-style error body, or null. */
    private static String errorCode(String body) {
        try {
            JsonNode node = OpenAiJson.mapper().readTree(body);
            return node != null && node.path("error").path("code").isTextual() ? node.path("error").path("code").asText() : null;
        } catch (JsonProcessingException notJson) {
            return null;
        }
    }

    /** The message of an OpenAI-style error body, else the body itself, shortened. */
    private static String errorMessage(String body) {
        try {
            JsonNode node = OpenAiJson.mapper().readTree(body);
            if (node != null && node.path("error").path("message").isTextual()) {
                return node.path("error").path("message").asText();
            }
        } catch (JsonProcessingException notJson) {
            // fall through to the raw body
        }
        String trimmed = body.strip();
        return trimmed.length() > 300 ? trimmed.substring(0, 300) + "..." : trimmed;
    }

    private static <T> T parse(String json, Class<T> type, URI uri) {
        try {
            return OpenAiJson.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            String head = json.length() > 200 ? json.substring(0, 200) + "..." : json;
            throw new OpenAiException(Kind.BAD_RESPONSE, 200, "reply from " + uri + " is not a valid "
                    + type.getSimpleName() + " (" + e.getOriginalMessage() + "): " + head, e);
        }
    }

    private static String readQuietly(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** An open 2xx reply body and the concurrency permit it holds. */
    private static final class Exchange implements AutoCloseable {
        final InputStream body;
        private final Semaphore permits;
        private final URI uri;
        private final Duration timeout;

        Exchange(InputStream body, Semaphore permits, URI uri, Duration timeout) {
            this.body = body;
            this.permits = permits;
            this.uri = uri;
            this.timeout = timeout;
        }

        String readAll() {
            try {
                return new String(body.readAllBytes(), StandardCharsets.UTF_8);
            } catch (TimedBody.IdleTimeout e) {
                throw new OpenAiException(Kind.TIMEOUT, 200, "reply from " + uri + " stalled: no data for "
                        + timeout.toMillis() + " ms", e);
            } catch (IOException e) {
                throw new OpenAiException(Kind.CONNECTION_LOST, 200, "reply from " + uri + " broke off: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            try {
                body.close();
            } catch (IOException ignored) {
                // the reply is already read or abandoned; nothing to recover
            } finally {
                permits.release();
            }
        }
    }
}
