package dev.toolcoach.bench.model;

import dev.toolcoach.model.tokenizer.ModelTokenizer;

/** Ids only, for benchmarking a random model that has no vocabulary text (no stop strings are used). */
final class NoTextTokenizer implements ModelTokenizer {
    private final int vocab;

    NoTextTokenizer(int vocab) {
        this.vocab = vocab;
    }

    @Override
    public int[] encode(String text) {
        throw new UnsupportedOperationException("benchmark tokenizer has no text");
    }

    @Override
    public String decode(int[] ids) {
        return "";
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
