package dev.toolcoach.cluster.learner;

import dev.toolcoach.model.tokenizer.ModelTokenizer;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A tokenizer for a random model without a vocabulary: the text of a token is its id. */
public final class IdTokenizer implements ModelTokenizer {
    private final int vocab;

    public IdTokenizer(int vocab) {
        this.vocab = vocab;
    }

    @Override
    public int[] encode(String text) {
        return text.isBlank() ? new int[0] : Arrays.stream(text.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }

    @Override
    public String decode(int[] ids) {
        return Arrays.stream(ids).mapToObj(Integer::toString).collect(Collectors.joining(" "));
    }

    @Override
    public int vocabSize() {
        return vocab;
    }

    @Override
    public int bosId() {
        return 1;
    }

    @Override
    public int eosId() {
        return 2;
    }
}
