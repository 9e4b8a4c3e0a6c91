package dev.toolcoach.brain.endpoint;

import dev.toolcoach.model.ComputeDevice;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a helper model (a judge, a tool selector) is: an OpenAI-compatible endpoint, or a local Hugging Face model
 * folder served in this JVM while the job runs ({@link ServedModel}).
 *
 * @param url   an OpenAI-compatible API root (called with the key {@link OutboundEndpoints} has for it); null for a local folder
 * @param model the model id at {@code url}, or, without a URL, the local model folder
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelEndpoint(String url, String model) {

    public ModelEndpoint {
        if ((url == null || url.isBlank()) && (model == null || model.isBlank())) {
            throw new IllegalArgumentException("a model endpoint needs a URL or a local model folder");
        }
    }

    /**
     * The endpoint ready to be asked; a local folder is loaded and served on first use, until {@link Open#close}.
     *
     * @param allowed the endpoints this process may call, each with its key: a URL is called with its endpoint's key only
     * @param field   the request field that named this endpoint, for a refusal (e.g. {@code judge.endpoint.url})
     * @param device  where a local folder computes
     * @throws IllegalArgumentException naming {@code field} when the URL is not under an allowed endpoint
     */
    public Open open(OutboundEndpoints allowed, String field, ComputeDevice device) {
        if (url != null && !url.isBlank()) {
            OpenAiConfig config = allowed.config(field, url, model == null ? "" : model).withRequestTimeout(Duration.ofSeconds(600));
            OpenAiClient client = new OpenAiClient(config);
            return new Open(null, client);
        }
        return new Open(new ServedModel(Path.of(model), device), null);
    }

    /** An endpoint in use. */
    public static final class Open implements AutoCloseable {
        private final ServedModel served;
        private final OpenAiClient remote;

        private Open(ServedModel served, OpenAiClient remote) {
            this.served = served;
            this.remote = remote;
        }

        public OpenAiClient client() {
            return served != null ? served.client() : remote;
        }

        @Override
        public void close() {
            if (served != null) served.close();
        }
    }
}
