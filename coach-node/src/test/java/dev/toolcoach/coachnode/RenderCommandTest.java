package dev.toolcoach.coachnode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.testkit.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void templateFileWithItsTokensPrintsExactlyTheSharedRendering() throws Exception {
        Path root = SharedData.require("chat_templates");
        CliRun run = new CliRun();
        int code = run.execute("render", "--template", root.resolve("templates/qwen2.5-instruct.jinja").toString(),
                "--tokens", root.resolve("templates/qwen2.5-instruct.tokens.json").toString(),
                "--conversation", root.resolve("cases/tool-round-trip.json").toString());
        assertEquals(0, code, run.err.toString());
        assertEquals(Files.readString(root.resolve("expected/qwen2.5-instruct/tool-round-trip.txt")), run.out.toString());
    }

    /** A folder whose tokenizer_config.json holds the template and its tokens (as AddedToken objects); the date comes from strftime_now. */
    @Test
    void modelFolderTemplateWithTheDateFromTheClock() throws Exception {
        Path root = SharedData.require("chat_templates");
        Path folder = Files.createDirectories(dir.resolve("llama"));
        ObjectNode config = JSON.createObjectNode();
        config.put("chat_template", Files.readString(root.resolve("templates/llama-3.2-instruct.jinja")));
        config.set("bos_token", JSON.valueToTree(Map.of("content", "<|begin_of_text|>", "special", true)));
        config.put("eos_token", "<|eot_id|>");
        JSON.writeValue(folder.resolve("tokenizer_config.json").toFile(), config);
        ObjectNode conversation = (ObjectNode) JSON.readTree(root.resolve("cases/plain.json").toFile());
        conversation.remove("chat_template_kwargs"); // no date_string: the template asks strftime_now
        Path file = dir.resolve("plain.json");
        JSON.writeValue(file.toFile(), conversation);

        CliRun run = new CliRun();
        int code = run.execute("render", "--model", folder.toString(), "--conversation", file.toString(), "--date", "2024-07-26");
        assertEquals(0, code, run.err.toString());
        assertEquals(Files.readString(root.resolve("expected/llama-3.2-instruct/plain.txt")), run.out.toString());
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo() throws Exception {
        Path root = SharedData.require("chat_templates");
        String template = root.resolve("templates/mistral-7b-instruct.jinja").toString();
        Path noRole = Files.writeString(dir.resolve("bad.json"), "{\"messages\": [{\"content\": \"hi\"}]}");
        String[][] cases = {
                {"render", "--template", template, "--conversation", noRole.toString()},
                {"render", "--template", template, "--bos", "<s>", "--eos", "</s>", "--conversation", root.resolve("cases/tool-round-trip.json").toString()},
                {"render", "--template", template, "--model", dir.toString(), "--conversation", noRole.toString()},
                {"render", "--model", dir.resolve("absent").toString(), "--conversation", root.resolve("cases/plain.json").toString()},
        };
        String[] said = {"bad.json: messages[0].role: missing", "conversation roles must alternate user/assistant",
                "either --model DIR or --template FILE", "model folder not found"};
        for (int i = 0; i < cases.length; i++) {
            CliRun run = new CliRun();
            assertEquals(2, run.execute(cases[i]), run.err.toString());
            String err = run.err.toString();
            assertTrue(err.contains(said[i]), err);
            assertEquals(1, err.strip().lines().count(), err);
            assertEquals("", run.out.toString());
        }
    }
}
