package dev.toolcoach.agent;

import dev.toolcoach.agent.replay.ByteTokenizer;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ByteTokenizerTest {

    private final ByteTokenizer tokenizer = ByteTokenizer.chatMl();

    @Test
    void specialTokensGetTheirOwnIds() {
        int start = tokenizer.id("<|im_start|>");
        int end = tokenizer.id("<|im_end|>");
        assertArrayEquals(new int[]{start, 'h', 'i', end, '\n'}, tokenizer.encode("<|im_start|>hi<|im_end|>\n"));
        assertEquals(259, tokenizer.vocabularySize());
    }

    @Test
    void everyStringRoundTrips() {
        Random random = new Random(1);
        for (int i = 0; i < 2000; i++) {
            StringBuilder s = new StringBuilder();
            for (int j = random.nextInt(30); j > 0; j--) {
                switch (random.nextInt(4)) {
                    case 0 -> s.append("<|im_end|>");
                    case 1 -> s.appendCodePoint(0x1F600 + random.nextInt(50));
                    case 2 -> s.append((char) ('a' + random.nextInt(26)));
                    default -> s.append("é<|");
                }
            }
            assertEquals(s.toString(), tokenizer.decode(tokenizer.encode(s.toString())));
        }
    }

    @Test
    void rejectsIdsOutsideTheVocabulary() {
        assertEquals("token id 999 is outside the vocabulary of 259",
                assertThrows(IllegalArgumentException.class, () -> tokenizer.decode(new int[]{999})).getMessage());
    }
}
