package dev.toolcoach.cluster.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Counts protocol messages and bytes by kind as the serializers write ({@code sent}) and read ({@code received}) them,
 * and messages too large for a frame ({@link dev.toolcoach.cluster.serialization.FrameBudget}).
 */
public final class WireMetrics {

    private final Counter messages;
    private final Counter bytes;
    private final Counter oversized;

    WireMetrics(PrometheusRegistry registry) {
        messages = Counter.builder().name("toolcoach_messages")
                .help("ToolCoach protocol messages serialized (sent) and deserialized (received), by kind")
                .labelNames("direction", "kind").register(registry);
        bytes = Counter.builder().name("toolcoach_message_bytes")
                .help("Serialized size of ToolCoach protocol messages, by kind")
                .labelNames("direction", "kind").register(registry);
        oversized = Counter.builder().name("toolcoach_messages_oversized")
                .help("ToolCoach protocol messages found larger than an Artery frame before sending (shrunk or refused), by kind")
                .labelNames("kind").register(registry);
    }

    public void oversized(Class<?> kind) {
        oversized.labelValues(kind.getSimpleName()).inc();
    }

    public void sent(Class<?> kind, int size) {
        count("sent", kind, size);
    }

    public void received(Class<?> kind, int size) {
        count("received", kind, size);
    }

    private void count(String direction, Class<?> kind, int size) {
        messages.labelValues(direction, kind.getSimpleName()).inc();
        bytes.labelValues(direction, kind.getSimpleName()).inc(size);
    }
}
