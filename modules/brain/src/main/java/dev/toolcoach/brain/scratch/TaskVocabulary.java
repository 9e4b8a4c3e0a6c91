package dev.toolcoach.brain.scratch;

import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The tokens of a task-sized model: the 256 bytes, ChatML's special tokens, and byte-level BPE merges
 * learned from the task's texts (none of them touching a digit), so task text is short while every
 * number is spelled digit by digit.
 */
public record TaskVocabulary(List<Merge> merges) {

    /** ChatML's specials, numbered after the merged tokens. */
    public static final List<String> SPECIALS = List.of(ChatMl.IM_START, ChatMl.IM_END, ChatMl.END_OF_TEXT);

    public TaskVocabulary {
        merges = List.copyOf(merges);
    }

    /** Learns up to {@code maxMerges} merges, each of a pair seen at least {@code minCount} times in the texts. */
    public static TaskVocabulary learn(List<String> texts, int maxMerges, int minCount) {
        return new TaskVocabulary(MergeLearner.learn(texts, SPECIALS, maxMerges, minCount));
    }

    /** The end of a turn, {@code <|im_end|>}. */
    public int imEndId() {
        return ByteLevelTokenizerJson.firstSpecialId(merges) + 1;
    }

    public int endOfTextId() {
        return ByteLevelTokenizerJson.firstSpecialId(merges) + 2;
    }

    public int size() {
        return ByteLevelTokenizerJson.vocabSize(SPECIALS, merges);
    }

    public void writeTokenizer(Path file) throws IOException {
        ByteLevelTokenizerJson.write(file, SPECIALS, merges);
    }
}
