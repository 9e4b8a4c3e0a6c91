package dev.toolcoach.model.scratch;

import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MergeLearnerTest {

    @Test
    void mergesTheMostFrequentPairFirstAndNeverDigitsOrSpecials() {
        // runs "abĠabĠ11Ġab" and "abĠ22" (a space is 'Ġ' in the byte-level alphabet): "ab" occurs 4 times, then
        // "abĠ" 3 times; "Ġ1", "1Ġ", "Ġ2" would be frequent enough too but touch digits, and "<s>" is cut out
        List<Merge> merges = MergeLearner.learn(List.of("<s>ab ab 11 ab<s>", "ab 22"), List.of("<s>"), 10, 2);
        assertEquals(List.of(new Merge("a", "b"), new Merge("ab", "Ġ")), merges);
    }
}
