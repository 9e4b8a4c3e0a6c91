package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MergeLearnerTest {

    @Test
    void mergesTheMostFrequentPairFirstAndNeverDigitsOrSpecials() {
        // runs "abĠabĠ11Ġab" and "abĠ22" (a space is 'Ġ' in the byte-level alphabet): "ab" occurs 4 times, then
        // "abĠ" 3 times; "Ġ1", "1Ġ", "Ġ2" would be frequent enough too but touch digits, and "<s>" is cut out
        List<Merge> merges = MergeLearner.learn(List.of("<s>ab ab 11 ab<s>", "ab 22"), List.of("<s>"), 10, 2);
        assertEquals(List.of(new Merge("a", "b"), new Merge("ab", "Ġ")), merges);
    }

    @Test
    void countsOverlappingOccurrencesAsRecountingDoes() {
        // "aaaa" (twice) holds (a, a) three times: 6, over (a, b) 5; joined left to right it is "aa aa", (aa, aa) 2;
        // then (a, b) joins, breaking (b, a) and making (ab, ab) 3 times, which goes before (aa, aa)
        List<String> texts = List.of("aaaa", "aaaa", "ababab", "xabab");
        assertEquals(List.of(new Merge("a", "a"), new Merge("a", "b"), new Merge("ab", "ab"), new Merge("aa", "aa")),
                MergeLearner.learn(texts, List.of(), 4, 2));
        assertEquals(RecountingMergeLearner.learn(texts, List.of(), 20, 1), MergeLearner.learn(texts, List.of(), 20, 1));
    }

    @Test
    void learnsExactlyTheMergesOfRecountingEveryPairOnRandomCorpora() {
        // few symbols, many repeats and chains ("aaaa", "abab"), digits, two-byte and three-byte characters, a
        // special, and counts low enough for ties everywhere: where an incremental count could go wrong
        String[] pieces = {"a", "b", "c", "aa", "ab", "ba", "abc", " ", "  ", "é", "中", "1", "22", "<s>", "<s", "\n"};
        for (int seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            List<String> texts = new ArrayList<>();
            int count = 1 + random.nextInt(12);
            for (int t = 0; t < count; t++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(40);
                for (int p = 0; p < length; p++) text.append(pieces[random.nextInt(random.nextBoolean() ? 4 : pieces.length)]);
                texts.add(text.toString());
            }
            int maxMerges = random.nextInt(40);
            int minCount = random.nextInt(4) - 1;
            assertEquals(RecountingMergeLearner.learn(texts, List.of("<s>"), maxMerges, minCount),
                    MergeLearner.learn(texts, List.of("<s>"), maxMerges, minCount), "seed " + seed);
        }
    }

    @Test
    void learnsExactlyTheMergesOfRecountingEveryPairOnChatTexts() {
        List<String> texts = chatTexts(60, 5L);
        assertEquals(RecountingMergeLearner.learn(texts, TaskVocabulary.SPECIALS, 200, 3),
                MergeLearner.learn(texts, TaskVocabulary.SPECIALS, 200, 3));
    }

    @Test
    void allocatesInProportionToTheCorpusNotToTheMerges() {
        // recounting allocated tens of kilobytes per corpus character for a thousand merges (a map entry, a boxed
        // count and list slots per pair occurrence, every merge): the main job's vocabulary allocated 9 GB
        List<String> texts = chatTexts(3000, 6L);
        long chars = texts.stream().mapToLong(String::length).sum();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        List<Merge> merges = MergeLearner.learn(texts, TaskVocabulary.SPECIALS, 1000, 2);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(1000, merges.size());
        assertTrue(allocated < 64 * chars, allocated + " bytes allocated for " + chars + " characters");
    }

    /**
     * Conversations shaped like a task's oracle texts: one long system prompt, a question, a JSON tool call, the
     * tool's numbers, an answer with a remark of made-up words; varied enough that most runs are distinct and a
     * thousand merges are frequent enough.
     */
    private static List<String> chatTexts(int count, long seed) {
        Random random = new Random(seed);
        String[] companies = {"Acme Corp", "Globex", "Initech", "Umbrella", "Stark Industries", "Wayne Enterprises"};
        String[] metrics = {"revenue", "net income", "operating margin", "free cash flow", "total debt"};
        String system = "You are a careful financial analyst. Use the tools to look up figures; never guess a number. "
                + "Tools: lookup(company, metric, year) returns a figure; calculate(expression) evaluates arithmetic. "
                + "Call a tool as <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call> and answer in one line.";
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String company = companies[random.nextInt(companies.length)];
            String metric = metrics[random.nextInt(metrics.length)];
            int year = 2015 + random.nextInt(10);
            String figure = (random.nextInt(90_000) + 1_000) + "." + random.nextInt(100);
            texts.add("<|im_start|>system\n" + system + "<|im_end|>\n"
                    + "<|im_start|>user\nWhat was the " + metric + " of " + company + " in " + year + "?<|im_end|>\n"
                    + "<|im_start|>assistant\n<tool_call>{\"name\": \"lookup\", \"arguments\": {\"company\": \"" + company
                    + "\", \"metric\": \"" + metric + "\", \"year\": " + year + "}}</tool_call><|im_end|>\n"
                    + "<|im_start|>user\n<tool_response>{\"value\": " + figure + ", \"unit\": \"USD million\"}</tool_response><|im_end|>\n"
                    + "<|im_start|>assistant\nThe " + metric + " of " + company + " in " + year + " was " + figure
                    + " million dollars." + words(random) + "<|im_end|><|endoftext|>");
        }
        return texts;
    }

    private static String words(Random random) {
        String[] syllables = {"ka", "lo", "mi", "ten", "ra", "su", "vel", "do", "qua", "ris", "ne", "bo", "tra", "pe", "gon"};
        StringBuilder remark = new StringBuilder();
        int words = 2 + random.nextInt(8);
        for (int w = 0; w < words; w++) {
            remark.append(' ');
            int length = 1 + random.nextInt(4);
            for (int s = 0; s < length; s++) remark.append(syllables[random.nextInt(syllables.length)]);
        }
        return remark.toString();
    }
}
