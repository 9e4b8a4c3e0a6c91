package dev.toolcoach.brain.run;

import dev.toolcoach.model.ComputeDevice;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.testkit.StyleTemplates;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.testkit.FunctionTools;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Agent traces of two contexts (a Qwen-style template that drops earlier thinking) trained by the learner on a tiny
 * random Qwen2: each context is scored alone, so the log-probs the learner recomputes before its update are the
 * ones the replies were generated with, and every GRPO ratio is 1. Read as one context, they are not.
 */
class MultiContextTrainingTest {

    private static final String CALL = "<tool_call>\n{\"name\": \"mul\", \"arguments\": {\"a\": 17, \"b\": 23}}\n</tool_call>";
    /** Scales the output head's HF init (std 0.02): near-uniform next-token distributions hardly depend on the context. */
    private static final float HEAD_SCALE = 200f;

    @Test
    void theLearnerScoresEachContextOfAnAgentTraceAsItWasGenerated(@TempDir Path dir) throws Exception {
        Path folder = peakedModel(dir.resolve("model"));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        FunctionTools tools = new FunctionTools(pool).add(ToolSpec.of("mul", "Multiply.",
                        "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}, \"b\": {\"type\": \"integer\"}}}"),
                args -> String.valueOf(((Number) args.get("a")).longValue() * ((Number) args.get("b")).longValue()));
        try (LocalPolicy policy = LocalPolicy.load(folder, null, null, 1, ComputeDevice.cpu());
             NDManager scope = NDManager.newBaseManager()) {
            LoraAdapter adapter = policy.model().addLora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj")), 3);
            AdapterWeights fresh = policy.model().snapshotAdapter();
            AgentConfig config = new AgentConfig(ActionFormat.HERMES, SamplingParams.greedy(256), 3, 4096, Duration.ofSeconds(10), 2000);
            List<ScoredTrace> group = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                ForcedReplies replies = new ForcedReplies(policy, scope,
                        List.of("<think>I multiply.</think>\n" + CALL, "<think>So it is " + (391 + r) + ".</think>\n" + (391 + r)));
                Trace trace = new AgentLoop(policy.tokenizer(), policy.chatFormat(), replies, tools, config)
                        .run(new RolloutRequest("g/" + r, "g", "q", "What is 17 times 23?", Map.of()))
                        .toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertEquals(Termination.ANSWER, trace.termination(), trace.error());
                assertEquals(2, trace.tokens().contextCount(), "the second reply was generated in a new context");
                group.add(new ScoredTrace(trace, 1 - r));
            }

            GrpoMetrics separate = firstStep(policy, adapter, group);
            assertEquals(1.0, separate.meanRatio(), 1e-4, "recomputed log-probs are the behaviour ones: " + separate);

            policy.model().restoreAdapter(fresh);
            List<ScoredTrace> joined = group.stream().map(t -> new ScoredTrace(oneContext(t.trace()), t.reward())).toList();
            GrpoMetrics asOne = firstStep(policy, adapter, joined);
            assertTrue(Math.abs(asOne.meanRatio() - 1.0) > 1e-2, "scored in a context they were not generated in: " + asOne);
        } finally {
            pool.shutdown();
        }
    }

    /** TinyChatModel's folder with a sharper output head and the template that drops earlier thinking. */
    private static Path peakedModel(Path dir) throws Exception {
        ModelConfig config = TinyChatModel.config();
        Map<String, HostTensor> weights = new HashMap<>(ModelWeights.randomHf(config, 11));
        HostTensor head = weights.get(HfNames.LM_HEAD);
        float[] scaled = head.data().clone();
        for (int i = 0; i < scaled.length; i++) scaled[i] *= HEAD_SCALE;
        weights.put(HfNames.LM_HEAD, new HostTensor(head.shape(), scaled));
        TinyChatModel.write(dir, config, 11);
        HfModelFolder.write(dir, config, weights);
        Files.writeString(dir.resolve("chat_template.jinja"), StyleTemplates.QWEN_DROPPING_EARLIER_THINKING);
        return dir;
    }

    private static GrpoMetrics firstStep(LocalPolicy policy, LoraAdapter adapter, List<ScoredTrace> group) {
        try (LearnerCore learner = new LearnerCore(policy.model().transformer(), new LoraWeights(adapter), LearnerConfig.defaults(1e-2))) {
            return learner.trainGrpo(List.of(new ScoredGroup("g", group)));
        }
    }

    private static Trace oneContext(Trace t) {
        TokenRecord r = t.tokens();
        return new Trace(t.rolloutId(), t.groupId(), t.queryId(), t.query(), t.turns(),
                new TokenRecord(r.promptLength(), r.tokenIds(), r.lossMask(), r.behaviorLogprobs(), r.policyVersions()),
                t.finalAnswer(), t.termination(), t.error(), t.startedAtMillis(), t.durationMillis(), t.metadata());
    }

    /**
     * Replies with fixed texts, each followed by {@code <|im_end|>}, and the log-probs the model gives those tokens
     * after exactly the context it was asked to continue: what sampling them at temperature 1 would record.
     */
    private static final class ForcedReplies implements Generator {
        private final PolicyModel model;
        private final LocalPolicy policy;
        private final NDManager scope;
        private final List<String> script;
        private int next;

        ForcedReplies(LocalPolicy policy, NDManager scope, List<String> script) {
            this.policy = policy;
            this.model = policy.model();
            this.scope = scope;
            this.script = script;
        }

        @Override
        public synchronized CompletionStage<Generation> generate(GenerationRequest request) {
            String text = script.get(next++);
            int[] reply = policy.tokenizer().encode(text);
            reply = Arrays.copyOf(reply, reply.length + 1);
            reply[reply.length - 1] = TinyChatModel.IM_END;
            int[] context = request.context();
            int[] all = Arrays.copyOf(context, context.length + reply.length);
            System.arraycopy(reply, 0, all, context.length, reply.length);
            int[] attention = new int[all.length];
            Arrays.fill(attention, 1);
            float[] scores;
            try (NDManager step = scope.newSubManager()) {
                scores = model.score(step, new int[][] {all}, new int[][] {attention}, true, false).logprobs().toFloatArray();
            }
            float[] logprobs = Arrays.copyOfRange(scores, context.length - 1, all.length - 1);
            int[] versions = new int[reply.length];
            return CompletableFuture.completedFuture(new Generation(reply, logprobs, versions, text, FinishReason.STOP_TOKEN));
        }
    }
}
