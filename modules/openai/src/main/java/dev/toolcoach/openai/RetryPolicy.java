package dev.toolcoach.openai;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When to retry a reply and how long to wait: 429 and 5xx are retried up to {@code maxRetries}
 * times; the wait doubles from {@code initial} up to {@code max}, unless the server said how long
 * to wait with {@code Retry-After} (seconds or an HTTP date), which wins.
 */
public record RetryPolicy(int maxRetries, Duration initial, Duration max) {

    public static boolean retryable(int status) {
        return status == 429 || status >= 500;
    }

    /**
     * The wait before retry number {@code retry} (1-based).
     *
     * @param retryAfter the reply's Retry-After header, if any
     * @param now        the current time, for an HTTP-date Retry-After
     */
    public Duration delayBefore(int retry, Optional<String> retryAfter, ZonedDateTime now) {
        Optional<Duration> asked = retryAfter.flatMap(v -> parseRetryAfter(v.trim(), now));
        if (asked.isPresent()) return asked.get();
        long factor = 1L << Math.min(retry - 1, 30);
        Duration doubled = initial.multipliedBy(factor);
        return doubled.compareTo(max) > 0 ? max : doubled;
    }

    private static Optional<Duration> parseRetryAfter(String value, ZonedDateTime now) {
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(now, at);
                return Optional.of(d.isNegative() ? Duration.ZERO : d);
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }
}
