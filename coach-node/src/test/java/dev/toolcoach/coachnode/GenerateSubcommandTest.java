package dev.toolcoach.coachnode;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class GenerateSubcommandTest {

    /** Runs the command line with System.out captured: {@code generate} prints straight to it. */
    private static String[] runCapturingStdout(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            CliRun run = new CliRun();
            int code = run.execute(args);
            return new String[]{String.valueOf(code), captured.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(original);
        }
    }

    @Test
    void greedyStories260KPrintsExactlyTheReferenceText() throws Exception {
        String root = System.getProperty("toolcoach.shared.data");
        Path models = root == null ? null : Path.of(root, "models");
        assumeTrue(models != null && Files.isRegularFile(models.resolve("stories260K.bin")),
                "shared data absent (toolcoach.shared.data=" + root + "): stories260K generate test skipped");
        String[] result = runCapturingStdout("generate", "--model", models.resolve("stories260K.bin").toString(),
                "--tokenizer", models.resolve("tok512.bin").toString(), "--temperature", "0", "--steps", "200");
        assertEquals("0", result[0]);
        assertEquals(Files.readString(models.resolve("stories260K.greedy200.expected.txt")), result[1]);
    }

    @Test
    void aMissingModelIsOneLineOnStderrAndANonZeroExit() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        String[] result;
        try {
            result = runCapturingStdout("generate", "--model", "/nonexistent/model.bin");
        } finally {
            System.setErr(originalErr);
        }
        assertNotEquals("0", result[0]);
        assertEquals("", result[1], "nothing on stdout");
        // stderr may also hold engine log lines; the command's own report is one line
        List<String> reports = err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("generate:")).toList();
        assertEquals(List.of("generate: /nonexistent/model.bin: file not found"), reports);
    }
}
