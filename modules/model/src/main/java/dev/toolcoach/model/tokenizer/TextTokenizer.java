package dev.toolcoach.model.tokenizer;

/** Text ↔ token ids. */
public interface TextTokenizer {
    /** Token ids of the text, without BOS/EOS. */
    int[] encode(String text);

    /** Text of the ids (special tokens included as their text). */
    String decode(int[] ids);

    int vocabSize();

    int bosId();

    int eosId();
}
