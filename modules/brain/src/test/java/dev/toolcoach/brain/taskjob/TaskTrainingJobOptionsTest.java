package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.rewards.ToolUseReward;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The job's options: built once with their defaults, checked on build, and copied whole by {@code toBuilder}. */
class TaskTrainingJobOptionsTest {

    @Test
    void theDefaultsAreDocumentedOnesAndTheAthletesRunOneStepsRollouts() {
        ScratchRecipe recipe = ScratchRecipe.defaults();
        TaskTrainingJob.Options options = TaskTrainingJob.Options.builder().task("finance").runDir(Path.of("runs/r")).build();
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
        TaskTrainingJob.Options changed = TaskTrainingJob.Options.builder().task("email").dataDir(Path.of("data")).runDir(Path.of("r"))
                .algorithm(Algorithm.SFT).mode(TrainingMode.SYNC).recipe(ScratchRecipe.defaults().withGrpoSteps(2)).athletes(3).seed(9)
                .checkpointEvery(2).dataset(Path.of("d.jsonl")).limits(new TrainingConfig.Limits(Duration.ofHours(1), Duration.ofMinutes(1), 0))
                .adapt(Path.of("adapt.json")).toolReward(ToolUseReward.Weights.parse("0.2,0.1,1,0.05"))
                .tools(new ToolChoice("lexical", 2, List.of("sql"), List.of(), null)).judge(new JudgeChoice("relative", new ModelEndpoint("http://127.0.0.1:9/v1", "j")))
                .toolSuite("mail").endpoints(OutboundEndpoints.named(List.of("http://127.0.0.1:9/v1"), "k")).model(Path.of("my-model")).build();
        assertEquals(changed, changed.toBuilder().build());
        TaskTrainingJob.Options rewarded = changed.toBuilder().judge(null).toolReward(null).reward(new RewardChoice("exact"))
                .recipe(ScratchRecipe.defaults().withWarmupTraces(0)).adapter(Path.of("my-adapter")).toolsConfig(Path.of("tools.conf")).build();
        assertEquals(rewarded, rewarded.toBuilder().build());
    }

    /** job.json keeps a request as the user sent it, for a resume: the wire fields only, read back the same. */
    @Test
    void aRequestIsWrittenAsItsWireFieldsAndReadBack() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JobRequest request = JobRequest.builder().task("finance").name("r").algorithm("dpo").mode("sync").steps(2).warmupTraces(0)
                .checkpointEvery(3).runsDir("runs").toolSuite("mail").build();
        String written = json.writeValueAsString(request);
        Set<String> fields = new HashSet<>();
        json.readTree(written).fieldNames().forEachRemaining(fields::add);
        assertEquals(Set.of("task", "name", "algorithm", "mode", "steps", "warmup_traces", "athletes", "seed", "checkpoint_every",
                "recipe", "runs_dir", "data_dir", "dataset", "tool_retrieval", "judge", "tool_suite", "model", "reward", "adapter"), fields);
        assertEquals(request, json.readValue(written, JobRequest.class));
        assertEquals(request, request.toBuilder().build());
        TaskTrainingJob.Options options = request.options("r");
        assertEquals(Algorithm.DPO, options.algorithm());
        assertEquals(TrainingMode.SYNC, options.mode());
        assertEquals(Path.of("runs", "r"), options.runDir());
    }

    @Test
    void aBadOptionIsRefusedByName() {
        TaskTrainingJob.Options.Builder job = TaskTrainingJob.Options.builder().task("finance").runDir(Path.of("r"));
        assertEquals("athletes must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> job.athletes(0).build()).getMessage());
        assertEquals("checkpoint interval must be at least 1 step, was 0",
                assertThrows(IllegalArgumentException.class, () -> job.athletes(1).checkpointEvery(0).build()).getMessage());
        assertEquals("runDir", assertThrows(NullPointerException.class,
                () -> TaskTrainingJob.Options.builder().task("finance").build()).getMessage());
    }
}
