package dev.toolcoach.rewards.judge;

import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.openai.ResponseFormat;
import dev.toolcoach.rewards.GroupOutcome;
import dev.toolcoach.rewards.GroupReward;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.RewardUnavailableException;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An LLM judge for a whole group, reached through an OpenAI-compatible endpoint: one prompt shows
 * every attempt, the reply ranks (or scores) them all. A reply that is not a valid verdict is sent
 * back with the reason and retried; after {@code maxAttempts} the group is dropped and counted,
 * never given made-up scores. A judge that cannot be reached at all (refused key, no server) stops
 * the run with {@link RewardUnavailableException}.
 */
public final class RankingJudge implements GroupReward {

    private static final Logger LOG = LoggerFactory.getLogger(RankingJudge.class);
    // wrong endpoint or key: no later group would fare better
    private static final Set<OpenAiException.Kind> FATAL = EnumSet.of(OpenAiException.Kind.UNREACHABLE,
            OpenAiException.Kind.UNAUTHORIZED, OpenAiException.Kind.REQUEST_REJECTED, OpenAiException.Kind.INTERRUPTED);

    private final OpenAiClient client;
    private final JudgeSettings settings;
    private final JudgePrompt prompt;
    private final JudgeStats stats = new JudgeStats();

    public RankingJudge(OpenAiClient client, JudgeSettings settings) {
        this.client = client;
        this.settings = settings;
        this.prompt = new JudgePrompt(settings);
    }

    /** This judge as a reward the learner can call. */
    public Reward asReward() {
        return Reward.ofGroup(settings.mode() == JudgeMode.RANKING ? "llm_ranking_judge" : "llm_relative_scores", this);
    }

    public JudgeStats stats() {
        return stats;
    }

    @Override
    public GroupOutcome score(List<Trace> group, RewardContext example) {
        Judgement j = judge(group, example);
        if (j instanceof Judgement.Ranked r) return GroupOutcome.scored(r.rewards());
        return GroupOutcome.dropped("judge gave no valid verdict for group of " + example.queryId() + " after "
                + ((Judgement.Dropped) j).attempts() + " attempts: " + ((Judgement.Dropped) j).reason());
    }

    /** Judges one group: rewards, ranking and DPO pairs, or a dropped group with the reason. */
    public Judgement judge(List<Trace> group, RewardContext example) {
        if (group.isEmpty()) throw new IllegalArgumentException("cannot judge an empty group");
        PresentationOrder order = PresentationOrder.of(group, settings.shuffle());
        List<ChatMessage> conversation = new ArrayList<>();
        conversation.add(ChatMessage.user(prompt.render(order.shown(group), example)));
        String problem = "no attempt made";
        for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
            String reply;
            try {
                reply = client.chat(request(conversation)).text();
            } catch (OpenAiException e) {
                if (FATAL.contains(e.kind())) {
                    throw new RewardUnavailableException("judge at " + client.config().baseUrl() + " is unusable: "
                            + e.getMessage(), e);
                }
                stats.failedCall();
                problem = "judge call failed: " + e.getMessage();
                continue;
            }
            try {
                Judgement.Ranked verdict = verdict(reply, group, order, attempt);
                stats.ranked();
                return verdict;
            } catch (InvalidJudgement e) {
                stats.invalidReply();
                problem = e.getMessage();
                LOG.debug("invalid judge reply for {} (attempt {}): {}", example.queryId(), attempt, problem);
                conversation.add(ChatMessage.assistant(reply));
                conversation.add(ChatMessage.user("That reply cannot be used: " + problem
                        + ". Reply again with JSON only, in the format asked for, covering every attempt exactly once."));
            }
        }
        stats.dropped();
        LOG.warn("dropping group of {}: no valid verdict after {} attempts ({})", example.queryId(),
                settings.maxAttempts(), problem);
        return new Judgement.Dropped(problem, settings.maxAttempts());
    }

    private ChatRequest request(List<ChatMessage> conversation) {
        return ChatRequest.of(conversation).withTemperature(0.0).withMaxTokens(settings.maxTokens())
                .withResponseFormat(ResponseFormat.jsonObject());
    }

    private Judgement.Ranked verdict(String reply, List<Trace> group, PresentationOrder order, int attempt)
            throws InvalidJudgement {
        Ranking ranking;
        List<Double> rewards;
        if (settings.mode() == JudgeMode.RANKING) {
            ranking = order.toGroup(JudgeReplies.ranking(reply, group.size()));
            rewards = ranking.rewards();
        } else {
            rewards = order.toGroup(JudgeReplies.scores(reply, group.size()));
            ranking = JudgeReplies.rankingOf(rewards);
        }
        List<JudgedPair> pairs = ranking.preferencePairs().stream()
                .map(p -> new JudgedPair(group.get(p.chosen()), group.get(p.rejected()))).toList();
        return new Judgement.Ranked(rewards, ranking, pairs, attempt);
    }
}
