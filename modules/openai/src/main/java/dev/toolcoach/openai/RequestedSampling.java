package dev.toolcoach.openai;

import java.util.List;

/**
 * How an OpenAI chat request asks to sample: its values, or OpenAI's defaults where it gave none. Wire-level
 * values (temperature up to 2, no seed = the server chooses, stop strings, at most four); a backend turns them into its own
 * sampling, as {@link GeneratorBackend} does into the model's {@link dev.toolcoach.lm.SamplingParams}.
 *
 * <p>Checked completely here, where requests enter: NaN passes every comparison, so each range is written as what
 * a good value is ({@code 0 <= t <= 2}), never as what a bad one is; a bad value is refused naming its wire field,
 * without echoing it.
 */
public record RequestedSampling(double temperature, double topP, int maxTokens, Long seed, List<String> stop) {

    public static final int DEFAULT_MAX_TOKENS = 1024;
    /** OpenAI's limit on stop strings. */
    static final int MAX_STOP = 4;

    public RequestedSampling {
        if (!(temperature >= 0 && temperature <= 2)) throw new IllegalArgumentException("temperature must be a number in [0, 2]");
        if (!(topP > 0 && topP <= 1)) throw new IllegalArgumentException("top_p must be a number in (0, 1]");
        if (maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1");
        stop = stop == null ? List.of() : List.copyOf(stop);
        if (stop.size() > MAX_STOP || stop.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("stop must be at most " + MAX_STOP + " non-empty strings");
        }
    }

    /**
     * The reply cut before the first of the stop strings it holds, or {@code text} when it holds none (OpenAI's
     * meaning: the stop string itself is not returned).
     */
    public String cut(String text) {
        int end = text.length();
        for (String s : stop) {
            int at = text.indexOf(s);
            if (at >= 0) end = Math.min(end, at);
        }
        return text.substring(0, end);
    }

    static RequestedSampling of(ChatRequest r) {
        return new RequestedSampling(r.temperature() == null ? 1.0 : r.temperature(), r.topP() == null ? 1.0 : r.topP(),
                r.maxTokens() == null ? DEFAULT_MAX_TOKENS : r.maxTokens(), r.seed(), r.stop());
    }
}
