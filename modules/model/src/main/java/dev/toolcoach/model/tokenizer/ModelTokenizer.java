package dev.toolcoach.model.tokenizer;

import dev.toolcoach.lm.Tokenizer;
import java.util.Map;

/** A model's tokenizer: the shared {@link Tokenizer} contract plus what the engine needs of the vocabulary. */
public interface ModelTokenizer extends Tokenizer {
    int vocabSize();

    int bosId();

    int eosId();

    /** None by default: a llama2.c tokenizer has no special token text can spell (its BOS/EOS are never encoded). */
    @Override
    default Map<String, Integer> specialTokens() {
        return Map.of();
    }
}
