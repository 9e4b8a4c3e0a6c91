package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report phase alone, on a run folder's records: no model, no cluster. */
class ReportPhaseTest {

    @Test
    void aTeacherWithErrorsIsWeighedAgainstTheTrainedModelAndTheTimesAreWritten(@TempDir Path run) throws Exception {
        ScratchRecipe recipe = ScratchRecipe.overDefaults(new ObjectMapper().readTree("{\"warmupTeacherErrors\": 0.3}"));
        TaskTrainingJob.writeJson(run.resolve(WarmupRecord.FILE), new WarmupRecord(List.of(), 0, 0.7));
        Map<String, EvalRecord> evals = new LinkedHashMap<>();
        evals.put("after_warmup", record(150, 300));
        evals.put("after_grpo", record(240, 300));
        PhaseTimes times = new PhaseTimes();
        times.time("GRPO", () -> { });
        JobRun job = job(run, recipe, evals, times);

        List<String> verdict = ReportPhase.verdict(job, Algorithm.GRPO);

        assertEquals("teacher: 70.0% of its demonstrations right; after GRPO 80.0%, +10.0 points over it",
                verdict.get(verdict.size() - 1));
        TaskTrainingJob.Summary summary = ReportPhase.warmupOnly(job);
        assertNull(summary.training());
        Map<?, ?> written = new ObjectMapper().readValue(run.resolve(PhaseTimes.FILE).toFile(), Map.class);
        assertEquals(List.of("GRPO"), List.copyOf(((Map<?, ?>) written.get("phases")).keySet()));
        assertTrue(((Number) written.get("wall_seconds")).doubleValue() >= 0);
    }

    @Test
    void thePlainOraclesShareRightIsNoTeacherToBeat(@TempDir Path run) throws Exception {
        TaskTrainingJob.writeJson(run.resolve(WarmupRecord.FILE), new WarmupRecord(List.of(), 0, 1.0));
        Map<String, EvalRecord> evals = new LinkedHashMap<>(Map.of("after_grpo", record(240, 300)));

        List<String> verdict = ReportPhase.verdict(job(run, ScratchRecipe.defaults(), evals, new PhaseTimes()), Algorithm.GRPO);

        assertFalse(verdict.stream().anyMatch(line -> line.startsWith("teacher:")), verdict.toString());
        assertFalse(Files.exists(run.resolve(PhaseTimes.FILE)), "only the summary writes the times");
    }

    private static JobRun job(Path run, ScratchRecipe recipe, Map<String, EvalRecord> evals, PhaseTimes times) {
        TrainingJobSpec spec = TrainingJobSpec.builder().task("finance").recipe(recipe).runDir(run).build();
        return new JobRun(spec, null, null, null, null, List.of(), List.of(), List.of(), evals, times,
                phase -> { }, System.nanoTime());
    }

    private static EvalRecord record(int correct, int examples) {
        return new EvalRecord(examples, correct, correct / (double) examples, EvalRecord.wilson(correct, examples),
                correct / (double) examples, Map.of(), null, null, null, null, null, null, null);
    }
}
