package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.distill.LearnerSft;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run's {@code warmup.json}: the warm-up's passes (training loss, held-out loss and entropy), the pass whose weights
 * it kept and the share of the teacher's demonstrations that were right (1 for the task's oracle; null in a record
 * written before it was). Written by the job, read by {@code runs compare}.
 */
public record WarmupRecord(List<LearnerSft.Pass> passes, @JsonProperty("kept_pass") int keptPass,
                           @JsonProperty("teacher_accuracy") Double teacherAccuracy) {
    public static final String FILE = "warmup.json";

    public WarmupRecord {
        passes = List.copyOf(passes);
    }

    /** The kept pass, when the warm-up ran one. */
    public Optional<LearnerSft.Pass> kept() {
        return passes.stream().filter(p -> p.pass() == keptPass).findFirst();
    }

    /** The run folder's record, or empty when the run has none (no warm-up yet, or a run from before it was written). */
    static Optional<WarmupRecord> read(Path run) throws IOException {
        Path file = run.resolve(FILE);
        return Files.isRegularFile(file) ? Optional.of(new ObjectMapper().readValue(file.toFile(), WarmupRecord.class)) : Optional.empty();
    }
}
