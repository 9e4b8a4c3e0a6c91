package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.rewards.GroupOutcome;
import dev.toolcoach.rewards.HttpReward;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.RewardProvider;
import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.FunctionCallingTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TraceReward;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The reward a job trains and evaluates on, chosen by name ({@code train --reward NAME}, {@code reward} of a job
 * request); a rollout that scores 1 counts as solved. One of:
 * <ul>
 *   <li>{@code task}: the task's own (the default), trained on with partial credit for the oracle's calls;</li>
 *   <li>{@code call-match}: Tool-N1's, a well-formed reply whose calls match the gold calls (a function-calling task or
 *       dataset);</li>
 *   <li>{@code exact}: the final answer equals the gold one, ignoring case, spacing and punctuation;
 *       {@code mentions}: it contains it; {@code numeric} or {@code numeric:TOLERANCE}: its last number is within the
 *       absolute tolerance (default {@value #NUMERIC_TOLERANCE}) of the gold one;</li>
 *   <li>an {@code http(s)} URL: a reward server ({@link HttpReward}'s contract) under one of the job's endpoints, called
 *       with that endpoint's key;</li>
 *   <li>the name of a {@link RewardProvider} on the classpath: a user's own reward in Java.</li>
 * </ul>
 * A reward that fails or answers a non-finite score drops the group with its reason, counted; the job goes on.
 *
 * @param name what the job named, trimmed
 */
public record RewardChoice(String name) {
    public static final String TASK = "task";
    public static final String CALL_MATCH = "call-match";
    static final double NUMERIC_TOLERANCE = 1e-6;
    /** How long a reward server may take over one group. */
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> ANSWER_REWARDS = List.of("exact", "mentions", "numeric");

    /** @throws IllegalArgumentException naming the reward that is no built-in, URL or provider */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public RewardChoice {
        Objects.requireNonNull(name, "name");
        name = name.trim();
        if (!(builtIn(name) || isUrl(name))) {
            Map<String, RewardProvider> providers = providers();
            if (!providers.containsKey(name)) {
                throw new IllegalArgumentException("unknown reward '" + name + "': use task, call-match, exact, mentions, "
                        + "numeric[:TOLERANCE], the http(s) URL of a reward server, or a RewardProvider's name"
                        + (providers.isEmpty() ? " (none is on the classpath)" : " (on the classpath: " + String.join(", ", providers.keySet()) + ")"));
            }
        }
        if (name.startsWith("numeric:")) tolerance(name);
    }

    /** The task's own reward: what a job trains on unless it names another. */
    public static RewardChoice task() {
        return new RewardChoice(TASK);
    }

    @JsonValue
    @Override
    public String name() {
        return name;
    }

    public boolean isTask() {
        return name.equals(TASK);
    }

    /** The reward server's URL, when the reward is one. */
    public Optional<String> url() {
        return isUrl(name) ? Optional.of(name) : Optional.empty();
    }

    /**
     * Checks the reward fits the task and, for a server, that its URL is under one of {@code endpoints}.
     *
     * @throws IllegalArgumentException naming the mismatch
     */
    public void check(Task task, OutboundEndpoints endpoints) {
        boolean calling = task instanceof FunctionCallingTask;
        if (name.equals(CALL_MATCH) && !calling) {
            throw new IllegalArgumentException("reward call-match scores calls against gold calls, which task '" + task.name()
                    + "' does not name: use it with a function-calling task or a dataset of gold calls");
        }
        if (answerReward() && calling) {
            throw new IllegalArgumentException("reward " + name + " matches final answers, but task '" + task.name()
                    + "' is gold calls: use call-match");
        }
        if (isUrl(name)) endpoints.check("reward", name);
    }

    /** The reward evaluations count accuracy by, for rollouts that act in {@code format}. */
    public TraceReward evaluation(Task task, ActionFormat format, OutboundEndpoints endpoints) {
        if (isTask() || name.equals(CALL_MATCH)) return task.reward(format);
        if (answerReward()) return answer();
        if (isUrl(name)) {
            HttpReward server = server(endpoints);
            return (trace, example) -> {
                GroupOutcome outcome = server.score(List.of(trace), example);
                if (outcome instanceof GroupOutcome.Scored s) return s.get(0);
                throw new IllegalStateException(((GroupOutcome.Dropped) outcome).reason());
            };
        }
        return providers().get(name).reward();
    }

    /** The reward training optimises when it is not the task's own (which {@link TrainingJobSpec} shapes). */
    Reward training(Task task, ActionFormat format, OutboundEndpoints endpoints) {
        return isUrl(name) ? Reward.ofGroup(name, server(endpoints)) : Reward.perTrace(name, evaluation(task, format, endpoints));
    }

    private HttpReward server(OutboundEndpoints endpoints) {
        return new HttpReward(URI.create(name), endpoints.check("reward", name).apiKey(), HTTP_TIMEOUT);
    }

    private boolean answerReward() {
        return ANSWER_REWARDS.contains(name) || name.startsWith("numeric:");
    }

    private AnswerReward answer() {
        return switch (name) {
            case "exact" -> AnswerReward.exact();
            case "mentions" -> AnswerReward.mentions();
            case "numeric" -> AnswerReward.numeric(NUMERIC_TOLERANCE);
            default -> AnswerReward.numeric(tolerance(name));
        };
    }

    private static double tolerance(String name) {
        String text = name.substring("numeric:".length());
        double tolerance;
        try {
            tolerance = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("reward numeric:TOLERANCE needs a number, got '" + text + "'");
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("reward numeric:TOLERANCE needs a finite tolerance of 0 or more, got " + text);
        }
        return tolerance;
    }

    private static boolean builtIn(String name) {
        return name.equals(TASK) || name.equals(CALL_MATCH) || ANSWER_REWARDS.contains(name) || name.startsWith("numeric:");
    }

    private static boolean isUrl(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://");
    }

    /** The providers on the classpath by name; a provider named like a built-in reward is not reachable and so refused. */
    private static Map<String, RewardProvider> providers() {
        Map<String, RewardProvider> byName = new TreeMap<>();
        for (RewardProvider p : ServiceLoader.load(RewardProvider.class)) {
            if (builtIn(p.name()) || isUrl(p.name())) {
                throw new IllegalArgumentException("reward provider " + p.getClass().getName() + " is named '" + p.name()
                        + "', a built-in reward's name");
            }
            if (byName.putIfAbsent(p.name(), p) != null) {
                throw new IllegalArgumentException("two reward providers are named '" + p.name() + "'");
            }
        }
        return byName;
    }
}
