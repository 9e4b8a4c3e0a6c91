package dev.toolcoach.brain.dataset;

import dev.toolcoach.brain.taskjob.JobDataset;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the dataset loader: any file is read into its usable examples plus one counted skip per other
 * non-blank line, with its number and a reason that never quotes the line (every generated line carries a
 * marker that must not come back), or refused in one line when nothing is usable. Tries: {@code jqwik.tries.default}.
 */
class DatasetFuzzTest {

    private static final String SEED = "20261124";
    private static final String MARKER = "SECRET";
    private static final String GOOD = "{\"id\": \"" + MARKER + "-%d\", \"messages\": [{\"role\": \"user\", \"content\": \""
            + MARKER + "\"}], \"gold_answer\": \"" + MARKER + "\"}";

    @Property(seed = SEED)
    void everyLineIsAnExampleOrACountedSkipAndNothingIsEchoed(@ForAll("files") List<byte[]> lines) throws IOException {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] line : lines) content.write(line);
        long nonBlank = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(content.toByteArray()), StandardCharsets.UTF_8))
                .lines().filter(l -> !l.isBlank()).count();
        Path file = Files.createTempFile("dataset-fuzz", ".jsonl");
        try {
            Files.write(file, content.toByteArray());
            JobDataset dataset;
            try {
                dataset = JobDataset.read(file);
            } catch (IllegalArgumentException refused) {
                assertTrue(refused.getMessage().contains("has no usable example")
                        || refused.getMessage().contains("is a JSON array whose first item is neither"), refused.getMessage());
                assertFalse(refused.getMessage().contains(MARKER), refused.getMessage());
                assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
                return;
            }
            assertEquals(nonBlank, dataset.examples().size() + dataset.skipped().size());
            int previous = 0;
            for (DatasetIssue skip : dataset.skipped()) {
                int line = Integer.parseInt(skip.location().substring("line ".length()));
                assertTrue(line > previous, "line numbers in order");
                previous = line;
                assertFalse(skip.reason() == null || skip.reason().isBlank(), "a reason for line " + line);
                assertFalse(skip.reason().contains(MARKER), skip.reason());
            }
            assertFalse(dataset.skipSummary().contains(MARKER), dataset.skipSummary());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Lines as bytes, each ending in a line break: text lines in UTF-8 (lone surrogates become '?'), and raw bytes. */
    @Provide
    Arbitrary<List<byte[]>> files() {
        Arbitrary<byte[]> text = lines().map(l -> (l + "\n").getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> raw = Arbitraries.bytes().list().ofMaxSize(40).map(bytes -> {
            byte[] line = new byte[bytes.size() + MARKER.length() + 1];
            System.arraycopy(MARKER.getBytes(StandardCharsets.US_ASCII), 0, line, 0, MARKER.length());
            for (int i = 0; i < bytes.size(); i++) line[MARKER.length() + i] = bytes.get(i);
            line[line.length - 1] = '\n';
            return line;
        });
        return Arbitraries.frequencyOf(Tuple.of(6, text), Tuple.of(1, raw)).list().ofMaxSize(12);
    }

    private static Arbitrary<String> lines() {
        Arbitrary<String> good = Arbitraries.integers().between(0, 5).map(GOOD::formatted);
        Arbitrary<String> junk = Arbitraries.strings().all().ofMaxLength(60).map(s -> MARKER + s);
        Arbitrary<String> broken = Combinators.combine(good, Arbitraries.integers().between(0, 80),
                        Arbitraries.of("", "\"", "{", "]", ",", "\\", "\u0000", "9", MARKER, "null", "[1]"))
                .as((line, at, edit) -> line.substring(0, Math.min(at, line.length())) + edit
                        + line.substring(Math.min(at + 1, line.length())));
        Arbitrary<String> wrongTypes = Arbitraries.of(
                "{\"id\": 1, \"messages\": \"" + MARKER + "\"}",
                "{\"id\": \"" + MARKER + "\", \"messages\": [{\"role\": null, \"content\": \"" + MARKER + "\"}]}",
                "{\"id\": \"" + MARKER + "\", \"messages\": [], \"gold_answer\": \"" + MARKER + "\"}",
                "{\"id\": \"x\", \"messages\": [{\"role\": \"user\", \"content\": \"q\"}], \"tools\": [{\"name\": \"" + MARKER + "\", \"parameters\": 7}]}",
                "{\"id\": \"x\", \"messages\": [{\"role\": \"user\", \"content\": \"q\"}], \"solution\": [{\"" + MARKER + "\": 1}]}",
                "{\"" + MARKER + "\": {\"" + MARKER + "\": [\"" + MARKER + "\"]}}",
                "\"" + MARKER + "\"", MARKER, "[\"" + MARKER + "\"]", "");
        Arbitrary<String> deep = Combinators.combine(Arbitraries.integers().between(65, 20_000), Arbitraries.of("[", "{\"gold\":", "{\"" + MARKER + "\":"))
                .as((depth, open) -> open.repeat(depth) + MARKER);
        return Arbitraries.frequencyOf(Tuple.of(3, good), Tuple.of(2, junk), Tuple.of(3, broken), Tuple.of(2, wrongTypes),
                Tuple.of(1, deep));
    }
}
