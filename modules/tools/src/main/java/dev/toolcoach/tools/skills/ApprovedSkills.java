package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.spi.ToolSuite;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A suite as a tool server serves it: its own tools plus the approved skills over it in a library folder, re-read on
 * demand so a skill approved while the server runs is registered without a restart.
 */
public final class ApprovedSkills {

    private final ToolSuite base;
    private final SkillLibrary library;
    private List<String> current;
    private ToolSuite served;

    /** @throws IllegalArgumentException when a definition in the folder cannot be used (one line naming file and field) */
    public ApprovedSkills(ToolSuite base, Path folder) {
        this.base = base;
        this.library = new SkillLibrary(folder);
        List<SkillDefinition> approved = library.approved(base.name());
        this.served = SkillSuites.extend(base, approved);
        this.current = signature(approved);
    }

    /** The suite with the skills approved when last read. */
    public ToolSuite suite() {
        return served;
    }

    /**
     * Reads the folder again: the suite to serve when the approved skills over it changed, else empty.
     *
     * @throws IllegalArgumentException when a definition cannot be used (the caller keeps serving what it has)
     */
    public Optional<ToolSuite> refresh() {
        List<SkillDefinition> approved = library.approved(base.name());
        List<String> now = signature(approved);
        if (now.equals(current)) return Optional.empty();
        served = SkillSuites.extend(base, approved);
        current = now;
        return Optional.of(served);
    }

    /** The names of the skills served, in the folder's order. */
    public List<String> names() {
        return current.stream().map(s -> s.substring(0, s.indexOf('\n'))).toList();
    }

    private static List<String> signature(List<SkillDefinition> skills) {
        return skills.stream().map(d -> d.name() + "\n" + SkillFile.toJson(d)).toList();
    }
}
