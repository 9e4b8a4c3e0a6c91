package dev.toolcoach.brain;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.DpoMetrics;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.retrieval.offer.Distractors;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.testkit.ScriptedServer;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.tools.BuiltinSuites;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Brain trained with an LLM judge as its reward, asked over the real OpenAI-compatible HTTP path (the server over
 * a scripted judge model), with tool retrieval over a catalogue grown by a distractor suite.
 */
class JudgeAndRetrievalBrainTest {

    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start("judge-70b");
    private static final ScriptedBackend judgeModel = server.backend();

    @BeforeEach
    void freshScript() {
        judgeModel.reset();
    }

    private static BrainBuilder brain(Path dir, Task task) throws Exception {
        TrainingConfig config = TrainingConfig.builder().groupSize(4).groupsPerStep(2).athletes(4).maxPolicyLag(0)
                .rollouts(new RolloutSettings(1.0, 12, 1, 4096)).checkpointEvery(1)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        return Brain.builder().model(TinyChatModel.write(dir.resolve("model"), 7)).actionFormat(ActionFormat.TOOL_N1)
                .tool(task.toolSuites().get(0)).config(config).workDir(dir);
    }

    private static OpenAiClient judge() {
        return new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "judge-70b"));
    }

    @Test
    void dpoTrainsFromTheJudgesRankingsAndEachQueryIsOfferedItsRetrievedTools(@TempDir Path dir) throws Exception {
        judgeModel.reply("{\"ranking\": [1, 2, 3, 4]}").reply("{\"ranking\": [4, 3, 2, 1]}"); // one verdict per group
        Task finance = FinanceTask.create(6, 3);
        Brain brain = brain(dir, finance).algorithm(Algorithm.DPO).judgeReward(judge(), "ranking")
                .distractorTools(Distractors.load(List.of("arithmetic"), List.of(), BuiltinSuites.Options.defaults())).build()
                .enableToolRetrieval("lexical", 2);
        List<StepReport> steps = new CopyOnWriteArrayList<>();

        brain.train(finance.examples(), 1, steps::add, "judge-dpo");

        StepReport step = steps.get(0);
        assertEquals(List.of(), step.dropped());
        assertEquals(2, step.scored().size());
        for (ScoredGroup group : step.scored()) {
            // a ranking of four: rewards linear in rank, whatever order the group was shown in
            List<Double> rewards = group.traces().stream().map(ScoredTrace::reward).sorted().toList();
            for (int i = 0; i < 4; i++) assertEquals(i / 3.0, rewards.get(i), 1e-12, rewards.toString());
        }
        DpoMetrics dpo = assertInstanceOf(DpoMetrics.class, step.metrics());
        assertTrue(dpo.pairs() > 0, "DPO trained on the judge's preference pairs");
        assertEquals(2, judgeModel.requests().size(), "one judge call per group");
        for (BackendRequest request : judgeModel.requests()) {
            String prompt = request.messages().get(0).content();
            assertTrue(prompt.contains("=== Attempt 4 ===") && prompt.contains("Reference answer: "), prompt);
        }
        Map<String, List<String>> retrieved = new HashMap<>();
        for (TaskExample e : brain.offeredTools(finance.examples())) {
            retrieved.put(e.id(), e.tools().stream().map(ToolSpec::name).toList());
        }
        for (ScoredGroup group : step.scored()) {
            for (ScoredTrace t : group.traces()) {
                assertEquals(2, t.trace().offeredTools().size(), "two retrieved tools: " + t.trace().offeredTools());
                assertEquals(retrieved.get(t.trace().queryId()), t.trace().offeredTools());
            }
        }
    }

    @Test
    void relativeScoresAreTheRewardsOfGrpo(@TempDir Path dir) throws Exception {
        String scores = "{\"scores\": [{\"attempt\": 1, \"score\": 0.9}, {\"attempt\": 2, \"score\": 0.2},"
                + " {\"attempt\": 3, \"score\": 0.5}, {\"attempt\": 4, \"score\": 0.2}]}";
        judgeModel.reply(scores).reply(scores);
        Task arithmetic = ArithmeticTask.create(6, 3);
        Brain brain = brain(dir, arithmetic).algorithm(Algorithm.GRPO).judgeReward(judge(), "relative").build();
        List<StepReport> steps = new CopyOnWriteArrayList<>();

        brain.train(arithmetic.examples(), 1, steps::add, "judge-ruler");

        assertEquals(2, steps.get(0).scored().size(), steps.get(0).dropped().toString());
        for (ScoredGroup group : steps.get(0).scored()) {
            assertEquals(List.of(0.2, 0.2, 0.5, 0.9), group.traces().stream().map(ScoredTrace::reward).sorted().toList());
        }
        String prompt = judgeModel.requests().get(0).messages().get(0).content();
        assertTrue(prompt.contains("\"scores\""), "the judge is asked for relative scores: " + prompt);
    }
}
