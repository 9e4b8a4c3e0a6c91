package dev.toolcoach.coachnode;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.GeneratorBackend;
import dev.toolcoach.openai.RequestedSampling;
import dev.toolcoach.openai.ToolDefinition;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local model's answers to BFCL questions: each question's functions offered as tools (in the Java and JavaScript
 * categories as BFCL offers them there, every parameter a string of source text), the conversation rendered
 * by the model's chat template in its action format (as {@code serve} does it), one greedy reply each. Up to
 * {@code parallel} questions are in the engine at once, so its continuous batching is used.
 */
final class BfclAnswers {

    private BfclAnswers() {
    }

    /** The reply text per question id, in the model's action format. */
    static Map<String, String> generate(LocalPolicy policy, ActionFormat format, List<CallingExample> questions,
                                        int maxNewTokens, int parallel) {
        GeneratorBackend backend = new GeneratorBackend("bfcl", policy.generator(), policy.tokenizer(), policy.chatFormat(), format);
        RequestedSampling greedy = new RequestedSampling(0.0, 1.0, maxNewTokens, 0L, List.of());
        ExecutorService pool = Executors.newFixedThreadPool(parallel, r -> {
            Thread t = new Thread(r, "bfcl-eval");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<String, CompletableFuture<String>> pending = new LinkedHashMap<>();
            for (CallingExample q : questions) {
                List<ToolDefinition> tools = q.functions().stream().map(f -> tool(q.category().language().forPrompt(f))).toList();
                BackendRequest request = new BackendRequest(q.messages(), tools, greedy, false);
                pending.put(q.id(), CompletableFuture.supplyAsync(() -> backend.generate(request, text -> { }).text(), pool));
            }
            Map<String, String> replies = new LinkedHashMap<>();
            pending.forEach((id, reply) -> replies.put(id, reply.join()));
            return replies;
        } finally {
            pool.shutdownNow();
        }
    }

    private static ToolDefinition tool(FunctionDoc doc) {
        return ToolDefinition.function(doc.name(), doc.description(), doc.toJsonSchema().get("parameters"));
    }
}
