package dev.toolcoach.model.generate;

import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/** A sequence being decoded: what it produced so far and the token to feed next. Owned by one decoder thread. */
final class ActiveSequence {
    final int promptLength;
    final SamplingParams params;
    final Sampler sampler;
    final CompletableFuture<DecodedSequence> future;
    private int[] tokens = new int[16];
    private float[] logProbs = new float[16];
    private int[] versions = new int[16];
    private long[] steps = new long[16];
    private int count;
    private DecodedSequence result;

    ActiveSequence(int promptLength, SamplingParams params, CompletableFuture<DecodedSequence> future) {
        this.promptLength = promptLength;
        this.params = params;
        this.sampler = new Sampler(params);
        this.future = future;
    }

    int lastToken() {
        return tokens[count - 1];
    }

    boolean done() {
        return result != null;
    }

    DecodedSequence result() {
        return result;
    }

    /** Records a sampled token and decides whether the sequence ends with it. */
    void accept(Sampler.Sampled s, int version, long step, ModelTokenizer tokenizer, int maxSeqLen) {
        if (count == tokens.length) {
            tokens = Arrays.copyOf(tokens, count * 2);
            logProbs = Arrays.copyOf(logProbs, count * 2);
            versions = Arrays.copyOf(versions, count * 2);
            steps = Arrays.copyOf(steps, count * 2);
        }
        tokens[count] = s.token();
        logProbs[count] = s.logProb();
        versions[count] = version;
        steps[count] = step;
        count++;
        FinishReason finish = null;
        if (params.stopTokenIds().contains(s.token())) {
            finish = FinishReason.STOP_TOKEN;
        } else if (!params.stopStrings().isEmpty() && containsStop(tokenizer.decode(Arrays.copyOf(tokens, count)))) {
            finish = FinishReason.STOP_STRING;
        } else if (count >= params.maxNewTokens()) {
            finish = FinishReason.MAX_TOKENS;
        } else if (promptLength + count >= maxSeqLen) {
            finish = FinishReason.CONTEXT_FULL;
        }
        if (finish != null) {
            int[] ids = Arrays.copyOf(tokens, count);
            result = new DecodedSequence(ids, Arrays.copyOf(logProbs, count), Arrays.copyOf(versions, count),
                    Arrays.copyOf(steps, count), cut(tokenizer.decode(ids)), finish);
        }
    }

    private boolean containsStop(String text) {
        return params.stopStrings().stream().anyMatch(text::contains);
    }

    /** Text up to the end of the first stop string, when one occurs. */
    private String cut(String text) {
        int end = text.length();
        for (String stop : params.stopStrings()) {
            int at = text.indexOf(stop);
            if (at >= 0) {
                end = Math.min(end, at + stop.length());
            }
        }
        return text.substring(0, end);
    }
}
