package dev.toolcoach.openai;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientSettingsTest {

    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 1, 5, 10, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void backoffDoublesUpToTheCap() {
        RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(350));
        assertEquals(Duration.ofMillis(100), p.delayBefore(1, Optional.empty(), NOW));
        assertEquals(Duration.ofMillis(200), p.delayBefore(2, Optional.empty(), NOW));
        assertEquals(Duration.ofMillis(350), p.delayBefore(3, Optional.empty(), NOW));
        assertEquals(Duration.ofMillis(350), p.delayBefore(40, Optional.empty(), NOW));
    }

    @Test
    void retryAfterWinsInSecondsOrAsADate() {
        RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(7), p.delayBefore(1, Optional.of("7"), NOW));
        assertEquals(Duration.ofSeconds(90), p.delayBefore(1, Optional.of("Mon, 05 Jan 2026 10:01:30 GMT"), NOW));
        assertEquals(Duration.ZERO, p.delayBefore(1, Optional.of("Mon, 05 Jan 2026 09:00:00 GMT"), NOW));
        assertEquals(Duration.ofMillis(200), p.delayBefore(2, Optional.of("soon"), NOW), "unreadable header: own backoff");
    }

    @Test
    void onlyRateLimitsAndServerErrorsAreRetried() {
        assertTrue(RetryPolicy.retryable(429));
        assertTrue(RetryPolicy.retryable(503));
        assertFalse(RetryPolicy.retryable(400));
        assertFalse(RetryPolicy.retryable(401));
    }

    @Test
    void readsConfigAndNeverPrintsTheKey() {
        OpenAiConfig c = OpenAiConfig.fromConfig(ConfigFactory.parseMap(Map.of(
                "toolcoach.openai.client.base-url", "http://judge.local:9000/v1/",
                "toolcoach.openai.client.model", "judge-7b",
                "toolcoach.openai.client.api-key", "sk-secret-123")).withFallback(ConfigFactory.defaultReference()));
        assertEquals("http://judge.local:9000/v1/chat/completions", c.endpoint("/chat/completions").toString());
        assertEquals("judge-7b", c.model());
        assertEquals(3, c.maxRetries());
        assertEquals(Duration.ofSeconds(120), c.requestTimeout());
        assertFalse(c.toString().contains("sk-secret-123"), c.toString());
        assertTrue(c.toString().contains("apiKey=***"));
    }

    @Test
    void rejectsNonsenseSettings() {
        assertThrows(IllegalArgumentException.class, () -> OpenAiConfig.of("ftp://x/v1", "m"));
        assertThrows(IllegalArgumentException.class, () -> OpenAiConfig.of("http://x/v1", "m").withMaxConcurrency(0));
        ServerSettings s = ServerSettings.fromConfig(ConfigFactory.defaultReference());
        assertEquals("127.0.0.1", s.host(), "the server must bind to loopback by default");
    }
}
