package dev.toolcoach.brain.eval;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.agent.adapt.AdaptiveToolEnvironment;
import dev.toolcoach.agent.adapt.PreferenceFile;
import dev.toolcoach.agent.adapt.ToolPreferences;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * TILE's ADAPT in evaluation: the tool preferences the agent's calls are routed by, restored from {@code file} (checked
 * against the suite's tools) on first use and written back after every evaluation call, so they carry across sessions.
 * Thread-safe.
 *
 * @param context the context key of the agent's calls (e.g. {@code task:finance})
 */
public final class EvalPreferences {
    private final AdaptSettings settings;
    private final String context;
    private final Path file;
    private final long seed;
    private ToolPreferences preferences;

    public EvalPreferences(AdaptSettings settings, String context, Path file, long seed) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.context = Objects.requireNonNull(context, "context");
        this.file = Objects.requireNonNull(file, "file");
        this.seed = seed;
    }

    /** {@code tools} with equivalent calls routed by the preferences (restored on first use). */
    public synchronized ToolEnvironment route(ToolEnvironment tools) {
        if (preferences == null) {
            List<String> names = tools.specs().stream().map(ToolSpec::name).toList();
            settings.checkKnown(names);
            preferences = new ToolPreferences(settings.prior(), seed);
            if (Files.exists(file)) {
                PreferenceFile.Snapshot kept = PreferenceFile.snapshot(file, names);
                preferences.restore(kept.experience());
                preferences.restoreEpisodes(kept.episodes(), kept.lastUsed());
            }
        }
        return AdaptiveToolEnvironment.of(tools, preferences, settings, context, seed);
    }

    /** Writes the preferences to the file. */
    public synchronized void save() {
        if (preferences != null) PreferenceFile.write(file, preferences);
    }

    /** The preferences, empty before the first evaluation. */
    public synchronized Optional<ToolPreferences> current() {
        return Optional.ofNullable(preferences);
    }
}
