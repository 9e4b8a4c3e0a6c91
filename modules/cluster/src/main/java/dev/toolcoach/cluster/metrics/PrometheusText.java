package dev.toolcoach.cluster.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Renders a registry in the Prometheus text exposition format (version 0.0.4). */
public final class PrometheusText {

    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final PrometheusTextFormatWriter WRITER = new PrometheusTextFormatWriter(false);

    private PrometheusText() {
    }

    public static byte[] scrape(PrometheusRegistry registry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            WRITER.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException("writing metrics to memory failed", e);
        }
        return out.toByteArray();
    }
}
