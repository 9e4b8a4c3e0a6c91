package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.Precision;
import dev.toolcoach.rewards.ToolUseReward;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The job's options: built once with their defaults, checked on build, and copied whole by {@code toBuilder}. */
class TrainingJobSpecTest {

    @Test
    void theDefaultsAreDocumentedOnesAndTheAthletesRunOneStepsRollouts() {
        ScratchRecipe recipe = ScratchRecipe.defaults();
        TrainingJobSpec options = TrainingJobSpec.builder().task("finance").runDir(Path.of("runs/r")).build();
        assertEquals(Path.of("../shared/data"), options.dataDir());
        assertEquals(Algorithm.GRPO, options.algorithm());
        assertEquals(TrainingMode.ASYNC, options.mode());
        assertEquals(recipe, options.recipe());
        assertEquals(recipe.grpo().groupSize() * recipe.grpo().groupsPerStep(), options.athletes());
        assertEquals(1, options.seed());
        assertEquals(5, options.checkpointEvery());
        assertEquals(TrainingConfig.Limits.defaults(), options.limits());
        assertEquals(ToolChoice.none(), options.tools());
        assertEquals(OutboundEndpoints.none(), options.endpoints());
        assertEquals(1, options.trainingConfig().batching().maxPolicyLag(), "asynchronous: a lag of 1");
        assertEquals(0, options.toBuilder().mode(TrainingMode.SYNC).build().trainingConfig().batching().maxPolicyLag());
    }

    @Test
    void toBuilderCarriesEveryOption() {
        TrainingJobSpec changed = TrainingJobSpec.builder().task("email").dataDir(Path.of("data")).runDir(Path.of("r"))
                .algorithm(Algorithm.SFT).mode(TrainingMode.SYNC).recipe(ScratchRecipe.defaults().withGrpoSteps(2)).athletes(3).seed(9)
                .checkpointEvery(2).dataset(Path.of("d.jsonl")).limits(new TrainingConfig.Limits(Duration.ofHours(1), Duration.ofMinutes(1), 0))
                .adapt(Path.of("adapt.json")).toolReward(ToolUseReward.Weights.parse("0.2,0.1,1,0.05"))
                .tools(new ToolChoice("lexical", 2, List.of("sql"), List.of(), null)).judge(new JudgeChoice("relative", new ModelEndpoint("http://127.0.0.1:9/v1", "j")))
                .toolSuite("mail").endpoints(OutboundEndpoints.named(List.of("http://127.0.0.1:9/v1"), "k")).model(Path.of("my-model")).build();
        assertEquals(changed, changed.toBuilder().build());
        TrainingJobSpec rewarded = changed.toBuilder().judge(null).toolReward(null).reward(new RewardChoice("exact"))
                .recipe(ScratchRecipe.defaults().withWarmupTraces(0)).adapter(Path.of("my-adapter")).toolsConfig(Path.of("tools.conf")).build();
        assertEquals(rewarded, rewarded.toBuilder().build());
    }

    /** job.json keeps the spec for a resume: its JSON form names the fields a request has, and reads back the same spec. */
    @Test
    void theSpecIsWrittenAsARequestsFieldsAndReadBack() throws Exception {
        ObjectMapper json = new ObjectMapper();
        TrainingJobSpec spec = TrainingJobSpec.fromNetwork("""
                {"task": "finance", "name": "r", "algorithm": "dpo", "mode": "sync", "steps": 2, "warmup_traces": 0,
                 "checkpoint_every": 3, "tool_suite": "mail", "recipe": {"groupSize": 4}}""", Path.of("runs"), Path.of("data"), Path.of("models"));
        assertEquals(Algorithm.DPO, spec.algorithm());
        assertEquals(TrainingMode.SYNC, spec.mode());
        assertEquals(Path.of("runs", "r"), spec.runDir());
        assertEquals(2, spec.recipe().grpo().steps());
        assertEquals(4, spec.recipe().grpo().groupSize());
        assertEquals(32, spec.athletes(), "a step's rollouts: 4 x 8");
        String written = json.writeValueAsString(spec);
        Set<String> fields = new HashSet<>();
        json.readTree(written).fieldNames().forEachRemaining(fields::add);
        assertEquals(Set.of("task", "name", "algorithm", "mode", "steps", "warmup_traces", "athletes", "seed", "checkpoint_every",
                "recipe", "runs_dir", "data_dir", "tool_suite"), fields);
        TrainingJobSpec read = json.readValue(written, TrainingJobSpec.class);
        assertEquals(spec.toBuilder().runDir(spec.runDir().toAbsolutePath().normalize()).build(), read);
        assertEquals(spec, spec.toBuilder().build());
    }

    /** The device is a value the spec hands to what loads models, never written with the job: a node uses its own. */
    @Test
    void theDeviceTravelsToTheTrainingSettingsAndStaysOutOfTheJson() throws Exception {
        ComputeDevice half = new ComputeDevice(ai.djl.Device.cpu(), Precision.F16);
        TrainingJobSpec spec = TrainingJobSpec.builder().task("finance").runDir(Path.of("r")).device(half).build();
        assertEquals(half, spec.trainingConfig().device());
        assertEquals(ComputeDevice.cpu(), TrainingJobSpec.builder().task("finance").runDir(Path.of("r")).build().trainingConfig().device());
        String written = new ObjectMapper().writeValueAsString(spec);
        assertEquals(ComputeDevice.cpu(), new ObjectMapper().readValue(written, TrainingJobSpec.class).device(), written);
    }

    /** A user's model trains as given unless a warm-up is asked for; a count asked for survives every rebuild of the spec. */
    @Test
    void aModelTurnsTheWarmupOffUnlessOneIsAskedFor() {
        TrainingJobSpec given = TrainingJobSpec.builder().task("finance").runDir(Path.of("r")).model(Path.of("m")).build();
        assertEquals(0, given.recipe().warmup().traces());
        TrainingJobSpec asked = TrainingJobSpec.builder().task("finance").runDir(Path.of("r")).model(Path.of("m")).warmupTraces(16).build();
        assertEquals(16, asked.recipe().warmup().traces());
        assertEquals(16, asked.toBuilder().seed(2).build().recipe().warmup().traces());
        TrainingJobSpec scratch = TrainingJobSpec.builder().task("finance").runDir(Path.of("r")).build();
        assertEquals(ScratchRecipe.defaults().warmup().traces(), scratch.recipe().warmup().traces());
        assertEquals(0, scratch.toBuilder().model(Path.of("m")).build().recipe().warmup().traces());
    }

    @Test
    void aBadOptionIsRefusedByName() {
        TrainingJobSpec.Builder job = TrainingJobSpec.builder().task("finance").runDir(Path.of("r"));
        assertEquals("athletes must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> job.athletes(0).build()).getMessage());
        assertEquals("checkpoint interval must be at least 1 step, was 0",
                assertThrows(IllegalArgumentException.class, () -> job.athletes(1).checkpointEvery(0).build()).getMessage());
        assertTrue(TrainingJobSpec.builder().task("finance").build().name().startsWith("finance-"), "named by the task and the time");
        assertEquals("run name must be a plain folder name (letters, digits, . _ -; at most 100)", assertThrows(
                IllegalArgumentException.class, () -> TrainingJobSpec.builder().task("finance").name("../x").build()).getMessage());
    }
}
