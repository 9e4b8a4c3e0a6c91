package dev.toolcoach.policy;

import dev.toolcoach.model.ComputeDevice;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent loop on a tiny random Qwen2 through the bridge, with the real arithmetic tools. */
class LocalPolicyAgentTest {

    private static final String QUERY = "What is 17 times 23?";

    @TempDir
    static Path dir;
    private static Path modelDir;
    private static ToolExecutor tools;

    @BeforeAll
    static void setUp() throws Exception {
        modelDir = TinyChatModel.write(dir.resolve("model"), 11);
        tools = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults());
    }

    @AfterAll
    static void tearDown() {
        tools.close();
    }

    private static AgentConfig config(SamplingParams sampling) {
        return new AgentConfig(AgentConfig.defaults().actionFormat(), sampling, 3, 4096, Duration.ofSeconds(10), 2000);
    }

    private static Trace run(LocalPolicy policy, RecordingGenerator generator, SamplingParams sampling) throws Exception {
        AgentLoop loop = new AgentLoop(policy.tokenizer(), policy.chatFormat(), generator, tools, config(sampling));
        return loop.run(new RolloutRequest("r1", "g1", "q1", QUERY, Map.of())).toCompletableFuture().get(120, TimeUnit.SECONDS);
    }

    @Test
    void sampledRunRecordsExactlyTheEnginesTokensWithCorrectLossMask() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(modelDir, null, null, 4, ComputeDevice.cpu())) {
            RecordingGenerator generator = new RecordingGenerator(policy.generator(), () -> { });
            Trace trace = run(policy, generator, new SamplingParams(1f, 0, 1f, 32, 7L));

            assertNotEquals(Termination.ERROR, trace.termination(), trace.error());
            assertEquals(3, trace.turns().size(), "a random model never answers, so it runs out of turns");
            String prompt = policy.chatFormat().renderPrompt(List.of(
                    Message.system(new AgentLoop(policy.tokenizer(), policy.chatFormat(), generator, tools,
                            config(SamplingParams.greedy(1))).systemPrompt()), Message.user(QUERY)));
            int[] promptIds = policy.tokenizer().encode(prompt);
            assertEquals(promptIds.length, trace.tokens().promptLength());
            assertArrayEquals(promptIds, Arrays.copyOf(trace.tokens().tokenIds(), promptIds.length));
            assertRecordIsExactlyTheReplies(trace, generator.requests, generator.replies);
        }
    }

    @Test
    void greedyRunsAreReproducible() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(modelDir, null, null, 4, ComputeDevice.cpu())) {
            TokenRecord first = run(policy, new RecordingGenerator(policy.generator(), () -> { }), SamplingParams.greedy(24)).tokens();
            TokenRecord second = run(policy, new RecordingGenerator(policy.generator(), () -> { }), SamplingParams.greedy(24)).tokens();
            assertEquals(first, second);
            for (int i = 0; i < first.length(); i++) {
                assertEquals(0f, first.behaviorLogprobs()[i], "greedy is a point mass: log-prob 0");
            }
        }
    }

    @Test
    void anAdapterPublishedMidRunShowsInPolicyVersions() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(modelDir, null, null, 4, ComputeDevice.cpu())) {
            policy.model().addLora(LoraConfig.defaults(), 5);
            AdapterWeights snapshot = policy.model().snapshotAdapter();
            AdapterWeights version1 = new AdapterWeights(snapshot.config(), 1, snapshot.tensors());
            RecordingGenerator generator = new RecordingGenerator(policy.generator(), () -> policy.engine().setAdapter(version1));
            Trace trace = run(policy, generator, new SamplingParams(1f, 0, 1f, 16, 3L));

            assertRecordIsExactlyTheReplies(trace, generator.requests, generator.replies);
            assertEquals(3, generator.replies.size());
            assertTrue(Arrays.stream(generator.replies.get(0).policyVersions()).allMatch(v -> v == 0), "before the swap");
            // the request right after the swap may still start on the old version; the one after cannot
            assertTrue(Arrays.stream(generator.replies.get(2).policyVersions()).allMatch(v -> v == 1), "after the swap");
            int[] versions = trace.tokens().policyVersions();
            int last = -1;
            for (int i = 0; i < versions.length; i++) {
                if (trace.tokens().lossMask()[i] == 1) {
                    assertTrue(versions[i] >= last, "versions never go back at " + i);
                    last = versions[i];
                }
            }
        }
    }

    /**
     * Each request's context is the record up to that point, each reply sits right after it with
     * mask 1 and the engine's log-probs and versions, and everything else is mask 0, log-prob 0, version -1.
     */
    private static void assertRecordIsExactlyTheReplies(Trace trace, List<GenerationRequest> requests, List<Generation> replies) {
        TokenRecord record = trace.tokens();
        int[] ids = record.tokenIds();
        boolean[] generated = new boolean[ids.length];
        assertEquals(requests.size(), replies.size());
        assertEquals(replies.size(), trace.turns().size());
        for (int r = 0; r < replies.size(); r++) {
            int[] context = requests.get(r).context();
            Generation reply = replies.get(r);
            int start = context.length;
            assertEquals(start, trace.turns().get(r).tokenStart(), "turn " + r + " starts where its context ends");
            assertArrayEquals(context, Arrays.copyOf(ids, start), "context of request " + r + " is the record so far");
            assertArrayEquals(reply.tokenIds(), Arrays.copyOfRange(ids, start, start + reply.length()));
            assertArrayEquals(reply.logprobs(), Arrays.copyOfRange(record.behaviorLogprobs(), start, start + reply.length()));
            assertArrayEquals(reply.policyVersions(), Arrays.copyOfRange(record.policyVersions(), start, start + reply.length()));
            Arrays.fill(generated, start, start + reply.length(), true);
        }
        for (int i = 0; i < ids.length; i++) {
            assertEquals(generated[i] ? 1 : 0, record.lossMask()[i], "loss mask at " + i);
            if (!generated[i]) {
                assertEquals(0f, record.behaviorLogprobs()[i], "log-prob of a context token at " + i);
                assertEquals(-1, record.policyVersions()[i], "version of a context token at " + i);
            }
        }
    }
}
