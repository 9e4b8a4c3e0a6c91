package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.ResponseFormat;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Zero-Learn: has an external model write training queries for a task from the tools' full
 * specifications, keeps those within bounds (word limit, enough tool calls, calls that fit the
 * schemas), drops duplicates, and optionally has the model rank what it kept.
 *
 * <p>Generation repeats, asking only for the queries still missing, until enough are kept or
 * {@code maxReplies} replies were used. Endpoint failures (unreachable, 401, timeout, no choices)
 * surface as the client's {@link dev.toolcoach.openai.OpenAiException}, which names the problem.
 */
public final class ZeroLearn {

    private final OpenAiClient externalModel;
    private final int maxReplies;
    private final SelfRanker ranker;
    private final double temperature;

    /**
     * @param maxReplies     most generation replies per run (malformed ones included)
     * @param rankAttempts   ranking replies tried before the unranked order is kept
     * @param temperature    sampling temperature of the generation requests
     */
    public ZeroLearn(OpenAiClient externalModel, int maxReplies, int rankAttempts, double temperature) {
        if (maxReplies < 1) throw new IllegalArgumentException("maxReplies must be >= 1, got " + maxReplies);
        this.externalModel = externalModel;
        this.maxReplies = maxReplies;
        this.ranker = new SelfRanker(externalModel, rankAttempts);
        this.temperature = temperature;
    }

    /** Three generation replies, two ranking attempts, temperature 0.8. */
    public static ZeroLearn withDefaults(OpenAiClient externalModel) {
        return new ZeroLearn(externalModel, 3, 2, 0.8);
    }

    /** The Brain's signature: see {@link ZeroLearnRequest} for the parameters. */
    public ZeroLearnResult generateTrainingExamples(String taskDescription, int numExamples, int minToolCalls,
                                                    int maxWords, String guidanceExample, List<ToolSpec> externalTools,
                                                    boolean selfRank) {
        return generate(new ZeroLearnRequest(taskDescription, numExamples, minToolCalls, maxWords, guidanceExample,
                externalTools, selfRank));
    }

    public ZeroLearnResult generate(ZeroLearnRequest request) {
        QueryRules rules = new QueryRules(request);
        Map<Rejection, Integer> rejected = new EnumMap<>(Rejection.class);
        List<GeneratedQuery> kept = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int replies = 0;
        while (kept.size() < request.numExamples() && replies < maxReplies) {
            int missing = request.numExamples() - kept.size();
            String text = externalModel.chat(generationRequest(request, missing)).text();
            replies++;
            Optional<QueryReply.Parsed> parsed = QueryReply.read(text);
            if (parsed.isEmpty()) {
                rejected.merge(Rejection.MALFORMED_REPLY, 1, Integer::sum);
                continue;
            }
            rejected.merge(Rejection.MALFORMED_ENTRY, parsed.get().malformedEntries(), Integer::sum);
            for (GeneratedQuery q : parsed.get().queries()) {
                Optional<Rejection> broken = rules.check(q);
                Rejection reason = broken.orElse(!seen.add(q.normalised()) ? Rejection.DUPLICATE
                        : kept.size() >= request.numExamples() ? Rejection.SURPLUS : null);
                if (reason != null) rejected.merge(reason, 1, Integer::sum);
                else kept.add(q);
            }
        }
        List<GeneratedQuery> ordered = kept;
        boolean ranked = false;
        int unusableRankings = 0;
        if (request.selfRank() && kept.size() > 1) {
            SelfRanker.Outcome outcome = ranker.rank(request, kept);
            unusableRankings = outcome.unusableReplies();
            if (outcome.order().isPresent()) {
                ordered = outcome.order().get().stream().map(kept::get).toList();
                ranked = true;
            }
        }
        return new ZeroLearnResult(toExamples(ordered, request, ranked), rejected, replies, ranked, unusableRankings);
    }

    private ChatRequest generationRequest(ZeroLearnRequest request, int count) {
        return ChatRequest.of(List.of(ChatMessage.system(GenerationPrompt.system()),
                        ChatMessage.user(GenerationPrompt.user(request, count))))
                .withResponseFormat(ResponseFormat.jsonObject())
                .withTemperature(temperature);
    }

    private static List<TaskExample> toExamples(List<GeneratedQuery> queries, ZeroLearnRequest request, boolean ranked) {
        List<TaskExample> out = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            GeneratedQuery q = queries.get(i);
            Map<String, Object> gold = new LinkedHashMap<>();
            gold.put("source", "zero-learn");
            gold.put("intended_calls", q.intendedCalls().stream().map(ZeroLearn::callJson).toList());
            gold.put("has_gold_answer", q.goldAnswer() != null);
            if (ranked) gold.put("rank", i + 1);
            // a query without a known answer still trains with rewards that need none (e.g. a judge)
            out.add(new TaskExample("zero-learn-" + i, List.of(Message.user(q.query())), request.tools(),
                    q.goldAnswer() == null ? "" : q.goldAnswer(), List.of(), gold));
        }
        return out;
    }

    private static Map<String, Object> callJson(ToolCall call) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", call.name());
        m.put("arguments", call.arguments());
        return m;
    }
}
