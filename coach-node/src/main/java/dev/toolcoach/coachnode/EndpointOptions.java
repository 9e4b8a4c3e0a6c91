package dev.toolcoach.coachnode;

import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.openai.OpenAiConfig;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;

/** Where the external model is: options, with the API key taken only from the environment so it never shows in a process list. */
final class EndpointOptions {

    @Option(names = "--base-url", description = "OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL)")
    String baseUrl;

    @Option(names = "--model", description = "model id (default: $OPENAI_MODEL)")
    String model;

    @Option(names = "--timeout-seconds", defaultValue = "120", description = "per-request timeout (default: ${DEFAULT-VALUE})")
    long timeoutSeconds;

    @Option(names = "--retries", defaultValue = "3", description = "retries on 429/5xx (default: ${DEFAULT-VALUE})")
    int retries;

    /** The endpoints a command's options name (null: not given), each called with {@code $OPENAI_API_KEY}: the user typed both. */
    static OutboundEndpoints named(String... urls) {
        return OutboundEndpoints.named(Arrays.asList(urls), apiKey());
    }

    /**
     * The reward server a command's {@code --reward} names (null: none), called with {@code $TOOLCOACH_REWARD_API_KEY}: the
     * OpenAI key is meant for the model endpoints, never for a reward server.
     */
    static OutboundEndpoints rewardServer(String url) {
        return OutboundEndpoints.named(Collections.singletonList(url), System.getenv().getOrDefault("TOOLCOACH_REWARD_API_KEY", ""));
    }

    private static String apiKey() {
        return System.getenv().getOrDefault("OPENAI_API_KEY", "");
    }

    /** The client config; a missing base URL is a usage error naming both ways to give it. */
    OpenAiConfig config() {
        String url = baseUrl != null ? baseUrl : System.getenv("OPENAI_BASE_URL");
        if (url == null || url.isBlank()) {
            throw new UsageException("no endpoint: give --base-url or set OPENAI_BASE_URL");
        }
        String id = model != null ? model : System.getenv().getOrDefault("OPENAI_MODEL", "");
        return OpenAiConfig.of(url, id).withApiKey(apiKey()).withRequestTimeout(Duration.ofSeconds(timeoutSeconds))
                .withRetries(retries, Duration.ofMillis(500), Duration.ofSeconds(30));
    }
}
