package dev.toolcoach.openai;

import com.typesafe.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the client talks to an OpenAI-compatible endpoint.
 *
 * @param baseUrl        the API root including the version, e.g. {@code http://127.0.0.1:8000/v1}
 * @param model          model id sent when a request names none
 * @param apiKey         bearer key, empty for none; never printed
 * @param requestTimeout limit on waiting for a reply's headers, and on any silence while its body arrives
 *                       (so a stalled stream fails instead of hanging)
 * @param maxRetries     retries after a 429 or 5xx reply
 * @param initialBackoff delay before the first retry, doubled each time
 * @param maxBackoff     cap on the doubled delay
 * @param maxConcurrency requests in flight at once from this client
 */
public record OpenAiConfig(URI baseUrl, String model, String apiKey, Duration requestTimeout, int maxRetries,
                           Duration initialBackoff, Duration maxBackoff, int maxConcurrency) {

    public OpenAiConfig {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String url = baseUrl.toString();
        if (url.endsWith("/")) baseUrl = URI.create(url.substring(0, url.length() - 1));
        if (baseUrl.getScheme() == null || !baseUrl.getScheme().startsWith("http")) {
            throw new IllegalArgumentException("base URL must be http(s): " + url);
        }
        model = model == null ? "" : model;
        apiKey = apiKey == null ? "" : apiKey;
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request timeout must be positive: " + requestTimeout);
        }
        if (maxRetries < 0) throw new IllegalArgumentException("max retries must be >= 0: " + maxRetries);
        if (maxConcurrency < 1) throw new IllegalArgumentException("max concurrency must be >= 1: " + maxConcurrency);
    }

    /** A config with the library defaults for everything but the endpoint and model. */
    public static OpenAiConfig of(String baseUrl, String model) {
        return new OpenAiConfig(URI.create(baseUrl), model, "", Duration.ofSeconds(120), 3,
                Duration.ofMillis(500), Duration.ofSeconds(30), 8);
    }

    /** Reads {@code toolcoach.openai.client} (see reference.conf; OPENAI_* environment variables override). */
    public static OpenAiConfig fromConfig(Config root) {
        Config c = root.getConfig("toolcoach.openai.client");
        return new OpenAiConfig(URI.create(c.getString("base-url")), c.getString("model"), c.getString("api-key"),
                c.getDuration("request-timeout"), c.getInt("max-retries"), c.getDuration("initial-backoff"),
                c.getDuration("max-backoff"), c.getInt("max-concurrency"));
    }

    public OpenAiConfig withApiKey(String key) {
        return new OpenAiConfig(baseUrl, model, key, requestTimeout, maxRetries, initialBackoff, maxBackoff, maxConcurrency);
    }

    public OpenAiConfig withRequestTimeout(Duration timeout) {
        return new OpenAiConfig(baseUrl, model, apiKey, timeout, maxRetries, initialBackoff, maxBackoff, maxConcurrency);
    }

    public OpenAiConfig withRetries(int retries, Duration initial, Duration max) {
        return new OpenAiConfig(baseUrl, model, apiKey, requestTimeout, retries, initial, max, maxConcurrency);
    }

    public OpenAiConfig withMaxConcurrency(int n) {
        return new OpenAiConfig(baseUrl, model, apiKey, requestTimeout, maxRetries, initialBackoff, maxBackoff, n);
    }

    public RetryPolicy retryPolicy() {
        return new RetryPolicy(maxRetries, initialBackoff, maxBackoff);
    }

    /** Endpoint URI for a path below the base URL, e.g. {@code /chat/completions}. */
    public URI endpoint(String path) {
        return URI.create(baseUrl + path);
    }

    @Override
    public String toString() {
        // the key stays out of every log line and error message
        return "OpenAiConfig[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey.isEmpty() ? "none" : "***")
                + ", requestTimeout=" + requestTimeout + ", maxRetries=" + maxRetries + ", initialBackoff="
                + initialBackoff + ", maxBackoff=" + maxBackoff + ", maxConcurrency=" + maxConcurrency + "]";
    }
}
