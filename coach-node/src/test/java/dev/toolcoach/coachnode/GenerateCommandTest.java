package dev.toolcoach.coachnode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.toolcoach.testkit.TinyChatModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GenerateCommandTest {
    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new GenerateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).execute(args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void llama2cGreedyPrintsExactlyTheReferenceText() throws Exception {
        Path dir = sharedModels();
        Run r = run("--model", dir.resolve("stories260K.bin").toString(), "--tokenizer", dir.resolve("tok512.bin").toString(),
                "--temperature", "0", "--steps", "200");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Files.readString(dir.resolve("stories260K.greedy200.expected.txt")), r.out());
    }

    @Test
    void llama2cPromptIsPrintedAndCountsTowardsSteps() {
        Path dir = sharedModels();
        Run r = run("--model", dir.resolve("stories260K.bin").toString(), "--tokenizer", dir.resolve("tok512.bin").toString(),
                "--prompt", "Lily and Tom", "--temperature", "0.8", "--seed", "42", "--steps", "40");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("Lily and Tom"), r.out());
        assertEquals(r.out(), run("--model", dir.resolve("stories260K.bin").toString(), "--tokenizer",
                dir.resolve("tok512.bin").toString(), "--prompt", "Lily and Tom", "--temperature", "0.8", "--seed", "42",
                "--steps", "40").out(), "same seed, same text");
    }

    @Test
    void hfFolderGeneratesAndMissingModelIsAOneLineError(@TempDir Path tmp) throws Exception {
        TinyChatModel.write(tmp.resolve("m"), 3L);
        Run ok = run("--model", tmp.resolve("m").toString(), "--prompt", "w5 w6", "--steps", "5", "--temperature", "0");
        assertEquals(0, ok.exit(), ok.err());
        assertFalse(ok.out().isBlank());
        Run missing = run("--model", tmp.resolve("nothing.bin").toString());
        assertEquals(GenerateCommand.USAGE_ERROR, missing.exit(), "exit 2, as serve and train answer a bad model");
        assertTrue(missing.err().contains("nothing.bin: file not found"), missing.err());
        assertFalse(missing.err().contains("\tat "), "no stack trace");
    }

    @Test
    void samplingOptionsThatAreNotFiniteOrOutOfRangeAreOneLineUsageErrors() {
        String[][] cases = {{"--temperature", "NaN", "temperature must be"}, {"--temperature", "Infinity", "temperature must be"},
                {"--temperature", "-1", "temperature must be"}, {"--top-p", "NaN", "topP must be"}, {"--top-p", "0", "topP must be"},
                {"--steps", "0", "--steps must be"}};
        for (String[] c : cases) {
            Run r = run("--model", "/nonexistent/model.bin", c[0], c[1]);
            assertEquals(GenerateCommand.USAGE_ERROR, r.exit(), c[0] + " " + c[1] + ": " + r.err());
            assertTrue(r.err().startsWith("generate: " + c[2]), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertEquals("", r.out());
        }
    }

    @Test
    void aModelFolderWhoseConfigIsNotJsonIsOneLineNamingTheFileAndPlace(@TempDir Path tmp) throws Exception {
        Path model = TinyChatModel.write(tmp.resolve("m"), 3L);
        Files.writeString(model.resolve("config.json"), "{\"model_type\": \"qwen2\",\n \"hidden_size\": 32 32}");
        Run r = run("--model", model.toString(), "--steps", "2");
        assertEquals(GenerateCommand.USAGE_ERROR, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("config.json") && r.err().contains("not valid JSON at line 2, column "), r.err());
        assertFalse(r.err().contains("Source:") || r.err().contains("java.") || r.err().contains("(code "), r.err());
        Path truncated = TinyChatModel.write(tmp.resolve("t"), 3L);
        String tokenizer = Files.readString(truncated.resolve("tokenizer.json"));
        Files.writeString(truncated.resolve("tokenizer.json"), tokenizer.substring(0, tokenizer.length() / 2));
        Run t = run("--model", truncated.toString(), "--steps", "2");
        assertEquals(GenerateCommand.USAGE_ERROR, t.exit(), t.err());
        assertEquals(1, t.err().strip().lines().count(), t.err());
        assertTrue(t.err().contains("tokenizer.json: tokenizer: not valid JSON at "), t.err());
        assertFalse(t.err().contains("Source:") || t.err().contains("Unexpected end-of-input"), t.err());
    }

    private static Path sharedModels() {
        String root = System.getProperty("toolcoach.shared.data");
        Path dir = root == null ? null : Path.of(root, "models");
        assumeTrue(dir != null && Files.isRegularFile(dir.resolve("stories260K.bin")),
                "shared data absent (system property toolcoach.shared.data=" + root + "): stories260K test skipped");
        return dir;
    }
}
