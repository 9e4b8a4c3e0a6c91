package dev.toolcoach.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.testkit.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shared conversation through every shared real template, against the renderings Python's jinja2 made
 * (configured as Transformers configures it), byte for byte; where jinja2 raised, the same message.
 */
class SharedChatTemplatesTest {
    /** The day the shared renderings were made for (strftime_now). */
    private static final Clock JULY_26 = Clock.fixed(Instant.parse("2024-07-26T12:00:00Z"), ZoneOffset.UTC);

    @TestFactory
    Stream<DynamicTest> everyCaseThroughEveryTemplateMatchesJinja2() throws IOException {
        Path root = SharedData.require("chat_templates");
        List<Path> templates = list(root.resolve("templates"), ".jinja");
        List<Path> cases = list(root.resolve("cases"), ".json");
        assertFalse(templates.isEmpty() || cases.isEmpty(), "no shared templates or cases under " + root);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path templateFile : templates) {
            String name = templateFile.getFileName().toString().replace(".jinja", "");
            for (Path caseFile : cases) {
                String caseName = caseFile.getFileName().toString().replace(".json", "");
                tests.add(DynamicTest.dynamicTest(name + " / " + caseName, () -> check(root, templateFile, name, caseFile, caseName)));
            }
        }
        return tests.stream();
    }

    private static void check(Path root, Path templateFile, String name, Path caseFile, String caseName) throws IOException {
        Map<String, Object> tokens = HfModelFolder.specialTokens(root.resolve("templates/" + name + ".tokens.json"));
        ChatTemplate template = new JinjaChatTemplate(Map.of("default", Files.readString(templateFile)), tokens, JULY_26);
        TemplateInput request = ConversationFile.read(caseFile);
        Path expected = root.resolve("expected/" + name + "/" + caseName + ".txt");
        Path error = root.resolve("expected/" + name + "/" + caseName + ".error");
        if (Files.exists(expected)) {
            assertEquals(Files.readString(expected), template.render(request));
        } else {
            assertTrue(Files.exists(error), "neither " + expected + " nor " + error);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> template.render(request));
            String said = Files.readString(error).strip();
            String message = said.startsWith("TemplateError: ") ? said.substring("TemplateError: ".length()) : said;
            assertTrue(e.getMessage().contains(message), "expected an error saying '" + message + "', got: " + e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one-line error: " + e.getMessage());
        }
    }

    private static List<Path> list(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }
}
