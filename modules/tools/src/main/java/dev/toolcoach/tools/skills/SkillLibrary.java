package dev.toolcoach.tools.skills;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A folder of skills, one sub-folder per skill: {@code <name>/skill.json} (the definition, {@link SkillFile}) and
 * {@code <name>/SKILL.md} (its card). Tool nodes register the approved ones; a person approves a pending one.
 */
public final class SkillLibrary {

    public static final String DEFINITION = "skill.json";
    public static final String CARD = "SKILL.md";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final Path dir;

    public SkillLibrary(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Every skill in the folder, by name; none when the folder does not exist.
     *
     * @throws SkillFile.SkillFileException for the first definition that cannot be used
     */
    public List<SkillDefinition> all() {
        if (!Files.isDirectory(dir)) return List.of();
        List<SkillDefinition> skills = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path sub : entries.sorted().toList()) {
                Path file = sub.resolve(DEFINITION);
                if (!Files.isRegularFile(file)) continue;
                SkillDefinition d = SkillFile.read(file);
                if (!d.name().equals(sub.getFileName().toString())) {
                    throw new SkillFile.SkillFileException(file, "field name: \"" + d.name() + "\" differs from its folder's name");
                }
                skills.add(d);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(dir + ": cannot list skills: " + e.getMessage());
        }
        return skills;
    }

    /** The approved skills over the named suite. */
    public List<SkillDefinition> approved(String suite) {
        return all().stream().filter(d -> d.suite().equals(suite) && d.status() == SkillDefinition.Status.APPROVED).toList();
    }

    public void save(SkillDefinition definition) throws IOException {
        if (!NAME.matcher(definition.name()).matches()) throw new IllegalArgumentException("skill name '" + definition.name()
                + "' must be 1-64 letters, digits, '_' or '-'");
        Path sub = dir.resolve(definition.name());
        Files.createDirectories(sub);
        SkillFile.write(sub.resolve(DEFINITION), definition);
        Files.writeString(sub.resolve(CARD), SkillCard.markdown(definition), StandardCharsets.UTF_8);
    }

    /** Marks a pending skill approved (tool nodes register it); returns it. */
    public SkillDefinition approve(String name) throws IOException {
        SkillDefinition found = all().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no skill named '" + name + "' in " + dir));
        SkillDefinition approved = found.withStatus(SkillDefinition.Status.APPROVED);
        save(approved);
        return approved;
    }
}
