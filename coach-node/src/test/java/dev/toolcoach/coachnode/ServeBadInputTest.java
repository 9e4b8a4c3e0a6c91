package dev.toolcoach.coachnode;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServeBadInputTest {

    private static void assertOneLineError(int expectedCode, String expectedLine, String... args) {
        CliRun run = new CliRun();
        assertEquals(expectedCode, run.execute(args), run.err.toString());
        assertEquals(expectedLine, run.err.toString().strip());
        assertEquals("", run.out.toString());
    }

    @Test
    void aPortOutOfRangeIsRejectedBeforeLoadingAnything() {
        assertOneLineError(ServeCommand.INPUT_ERROR, "serve: port out of range: 70000",
                "serve", "--model", "/nonexistent", "--port", "70000");
    }

    @Test
    void anAddressOffLoopbackWithoutAKeyIsRefusedBeforeLoadingAnything() {
        assertOneLineError(ServeCommand.INPUT_ERROR, "serve: refusing to serve on 0.0.0.0 without an API key: set --api-key, "
                        + "TOOLCOACH_SERVE_API_KEY or toolcoach.openai.server.api-key, or bind to 127.0.0.1",
                "serve", "--model", "/nonexistent", "--host", "0.0.0.0", "--port", "0");
    }

    @Test
    void theKeyComesFromTheConfigUnlessGivenOnTheCommandLine() {
        ServerSettings configured = ServerSettings.fromConfig(ConfigFactory.parseString("toolcoach.openai.server.api-key = sk-conf")
                .withFallback(ConfigFactory.defaultReference()));
        ServeCommand plain = new ServeCommand();
        plain.maxBatch = 2;
        assertEquals("sk-conf", plain.settings(configured).apiKey());
        assertEquals("127.0.0.1", plain.settings(configured).host());
        ServeCommand given = new ServeCommand();
        given.maxBatch = 2;
        given.apiKey = "sk-cli";
        assertEquals("sk-cli", given.settings(configured).apiKey());
        assertEquals(2, given.settings(configured).maxConcurrentGenerations());
    }

    @Test
    void anUnknownActionFormatIsRejectedNamingTheKnownOnes() {
        assertOneLineError(ServeCommand.INPUT_ERROR, "serve: --action-format: unknown action format 'qwen'; known: "
                + "tool-n1, tool-n1-compact, hermes, llama3-json, phi, code-act", "serve", "--model", "/nonexistent", "--action-format", "qwen");
    }

    @Test
    void aNonNumericPortIsAUsageError() {
        CliRun run = new CliRun();
        assertEquals(2, run.execute("serve", "--model", "m", "--port", "eighty"));
        assertEquals(1, run.err.toString().strip().lines().count(), run.err.toString());
    }

    @Test
    void aMissingModelFolderNamesIt(@TempDir Path dir) {
        Path missing = dir.resolve("no-model");
        assertOneLineError(ServeCommand.INPUT_ERROR, "serve: " + missing + ": file not found",
                "serve", "--model", missing.toString(), "--port", "0");
    }

    @Test
    void aPortInUseIsAStartErrorNamingTheAddress(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("tiny"), 1);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRun run = new CliRun();
            assertEquals(ServeCommand.START_ERROR, run.execute("serve", "--model", model.toString(),
                    "--port", String.valueOf(taken.getLocalPort())));
            String line = run.err.toString().strip();
            assertTrue(line.startsWith("serve: cannot serve on 127.0.0.1:" + taken.getLocalPort()) && !line.contains("\n"), line);
        }
    }

    @Test
    void aFolderWithoutConfigNamesTheMissingFile(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("empty-model"));
        assertOneLineError(ServeCommand.INPUT_ERROR, "serve: " + folder.resolve("config.json") + ": file not found",
                "serve", "--model", folder.toString(), "--port", "0");
    }
}
