package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SkillFileTest {

    @TempDir
    Path dir;

    private static SkillDefinition skill() {
        ToolSuite suite = Catalog.suite();
        try (ToolExecutor tools = Catalog.executor(suite)) {
            CallPattern pattern = new SequenceMiner(3, 3, 3).mine(List.of(Catalog.buyFirst(tools, "t1", "kettle"),
                    Catalog.buyFirst(tools, "t2", "lamp"), Catalog.buyFirst(tools, "t3", "red")).stream()
                    .map(SkillTrajectory::of).toList()).get(0);
            return SkillAbstraction.abstractPattern(pattern, suite, Set.of(), "runs/x/traces.jsonl", 0.75, 3, 3);
        }
    }

    @Test
    void aDefinitionReadsBackAsWritten() throws IOException {
        SkillDefinition written = skill();
        Path file = dir.resolve("skill.json");
        SkillFile.write(file, written);
        SkillDefinition read = SkillFile.read(file);
        assertEquals(SkillFile.toJson(written), SkillFile.toJson(read));
        assertEquals(written.steps(), read.steps());
        assertEquals(0.75, read.provenance().novelty());
    }

    private String problem(String json) throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, json);
        String message = assertThrows(SkillFile.SkillFileException.class, () -> SkillFile.read(file)).getMessage();
        assertFalse(message.contains("\n"), message);
        assertTrue(message.startsWith(file + ": "), message);
        return message.substring(file.toString().length() + 2);
    }

    @Test
    void aMalformedDefinitionIsOneLineNamingTheFileAndTheField() throws IOException {
        String good = SkillFile.toJson(skill()).toString();
        assertTrue(problem("{\"name\": ").startsWith("not JSON"));
        assertEquals("field status: must be \"pending\" or \"approved\", got \"maybe\"",
                problem(good.replace("\"status\":\"pending\"", "\"status\":\"maybe\"")));
        assertEquals("field steps[1].arguments.id.from_step: 2 is not an earlier step than 2",
                problem(good.replace("\"from_step\":1", "\"from_step\":2")));
        assertEquals("field steps[0].arguments.word.param: names no declared parameter: term",
                problem(good.replace("{\"param\":\"word\"}", "{\"param\":\"term\"}")));
        assertEquals("field provenance.support: must be an integer", problem(good.replace("\"support\":3", "\"support\":\"3\"")));
        assertEquals("field steps: must be an array of at least 2 steps", problem("{\"name\":\"n\",\"description\":\"d\",\"suite\":\"s\","
                + "\"status\":\"pending\",\"parameters\":{\"type\":\"object\"},\"steps\":[]}"));
    }

    @Test
    void aLibraryRefusesADefinitionWhoseNameIsNotItsFolder() throws IOException {
        SkillLibrary library = new SkillLibrary(dir);
        library.save(skill());
        Path renamed = dir.resolve("other");
        Files.move(dir.resolve(skill().name()), renamed);
        String message = assertThrows(SkillFile.SkillFileException.class, library::all).getMessage();
        assertEquals(renamed.resolve("skill.json") + ": field name: \"" + skill().name() + "\" differs from its folder's name", message);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SkillLibrary(dir.resolve("none")).approve("x")).getMessage()
                .startsWith("no skill named 'x'"));
    }
}
