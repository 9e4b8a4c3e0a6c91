package dev.toolcoach.bench.rollout;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolCallCodec;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One batch of rollouts, drawn from a seed: per trajectory 1–5 tool turns (a reply with 1–2 calls
 * of {@code lookup}) and then an answer; each reply's thought has a drawn number of tokens (the
 * call or answer markup adds about 35–135); each call's latency is drawn from 5–200 ms. Every mode
 * runs the same workload, and {@link #idealMillis} gives what each mode would take with no overhead
 * at all, so measured times can be checked against it.
 */
final class RolloutWorkload {

    static final int MIN_TOOL_TURNS = 1;
    static final int MAX_TOOL_TURNS = 5;
    static final long MIN_LATENCY_MILLIS = 5;
    static final long MAX_LATENCY_MILLIS = 200;
    /** The replies are the policy's own format: the bench's agent reads them back with the same codec. */
    private static final ToolCallCodec TOOL_N1 = ActionFormat.TOOL_N1.codec();
    private static final String[] WORDS = {"the", "price", "of", "stock", "check", "then", "compare", "with",
            "previous", "quarter", "result", "look", "up", "value", "and", "sum", "it", "next", "step", "is"};

    /** How a drawn quantity (a call's latency, a thought's length) spreads between its bounds. */
    enum Spread {
        /** Every value equally likely. */
        UNIFORM,
        /** Equally likely per factor of two: most values small, a long tail of large ones. */
        LOG_UNIFORM;

        long draw(long min, long max, SplittableRandom random) {
            if (min == max) return min;
            return switch (this) {
                case UNIFORM -> random.nextLong(min, max + 1);
                case LOG_UNIFORM -> Math.round(Math.exp(random.nextDouble(Math.log(min), Math.log(max))));
            };
        }
    }

    /** Bounds and spread of thought lengths, in tokens. */
    record Thoughts(int min, int max, Spread spread) {
        Thoughts {
            if (min < 1 || max < min) throw new IllegalArgumentException("thought tokens must be 1 <= min <= max, got " + min + "-" + max);
        }
    }

    /** One model reply and the latencies of the calls it makes (none for the answer). */
    record Turn(String reply, List<Long> callMillis) {
    }

    private final Map<String, List<Turn>> rollouts;
    private final Map<String, Long> latencyByKey;

    private RolloutWorkload(Map<String, List<Turn>> rollouts, Map<String, Long> latencyByKey) {
        this.rollouts = rollouts;
        this.latencyByKey = latencyByKey;
    }

    static RolloutWorkload draw(int trajectories, Spread latency, Thoughts thoughts, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, List<Turn>> rollouts = new LinkedHashMap<>();
        Map<String, Long> latencyByKey = new HashMap<>();
        for (int i = 0; i < trajectories; i++) {
            String id = "r" + i;
            List<Turn> turns = new ArrayList<>();
            int toolTurns = random.nextInt(MIN_TOOL_TURNS, MAX_TOOL_TURNS + 1);
            for (int t = 0; t < toolTurns; t++) {
                int calls = random.nextInt(1, 3);
                List<ToolCall> lookups = new ArrayList<>();
                List<Long> millis = new ArrayList<>();
                for (int c = 0; c < calls; c++) {
                    String key = id + "/" + t + "/" + c;
                    long ms = latency.draw(MIN_LATENCY_MILLIS, MAX_LATENCY_MILLIS, random);
                    latencyByKey.put(key, ms);
                    millis.add(ms);
                    lookups.add(new ToolCall("lookup", Map.of("key", key)));
                }
                turns.add(new Turn(TOOL_N1.writeThinking(thought(thoughts, random)) + TOOL_N1.writeCalls(lookups),
                        List.copyOf(millis)));
            }
            turns.add(new Turn(TOOL_N1.writeThinking(thought(thoughts, random)) + TOOL_N1.writeAnswer(String.valueOf(i)),
                    List.of()));
            rollouts.put(id, List.copyOf(turns));
        }
        return new RolloutWorkload(rollouts, latencyByKey);
    }

    /** Filler words cut to the drawn length; the byte tokenizer makes one token of each character. */
    private static String thought(Thoughts thoughts, SplittableRandom random) {
        int length = (int) thoughts.spread().draw(thoughts.min(), thoughts.max(), random);
        StringBuilder text = new StringBuilder();
        while (text.length() < length) text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        return text.substring(0, length);
    }

    List<String> ids() {
        return List.copyOf(rollouts.keySet());
    }

    Map<String, List<Turn>> rollouts() {
        return rollouts;
    }

    /** The latency of the call made with {@code key}, or null for a key no reply of this workload uses. */
    Long latencyMillis(String key) {
        return latencyByKey.get(key);
    }

    int turns(String id) {
        return rollouts.get(id).size();
    }

    /**
     * Wall time of each mode with free scheduling, from generation time (tokens of the reply and its
     * stop token × {@code msPerToken}) and tool time (the slowest call of the turn): async is the
     * longest trajectory; the turn barrier adds up each turn's slowest trajectory; holding replies
     * adds up each turn's slowest generation and slowest tools.
     */
    Map<RolloutModesBench.Mode, Double> idealMillis(Tokenizer tokenizer, double msPerToken) {
        int maxTurns = rollouts.values().stream().mapToInt(List::size).max().orElse(0);
        double async = 0;
        double[] turnMax = new double[maxTurns];
        double[] generationMax = new double[maxTurns];
        double[] toolsMax = new double[maxTurns];
        for (List<Turn> turns : rollouts.values()) {
            double total = 0;
            for (int t = 0; t < turns.size(); t++) {
                double generation = (tokenizer.encode(turns.get(t).reply()).length + 1) * msPerToken;
                double tools = turns.get(t).callMillis().stream().mapToLong(Long::longValue).max().orElse(0);
                total += generation + tools;
                turnMax[t] = Math.max(turnMax[t], generation + tools);
                generationMax[t] = Math.max(generationMax[t], generation);
                toolsMax[t] = Math.max(toolsMax[t], tools);
            }
            async = Math.max(async, total);
        }
        return Map.of(RolloutModesBench.Mode.ASYNC, async,
                RolloutModesBench.Mode.TURNS, Arrays.stream(turnMax).sum(),
                RolloutModesBench.Mode.SYNC, Arrays.stream(generationMax).sum() + Arrays.stream(toolsMax).sum());
    }

    /** Counts and spread of the workload, for the report. */
    String summary(Tokenizer tokenizer) {
        List<Long> latencies = latencyByKey.values().stream().sorted().toList();
        int[] replyTokens = rollouts.values().stream().flatMap(List::stream)
                .mapToInt(t -> tokenizer.encode(t.reply()).length + 1).sorted().toArray();
        long toolTurns = rollouts.values().stream().flatMap(List::stream).filter(t -> !t.callMillis().isEmpty()).count();
        return String.format("%d trajectories, %d replies (%d with tool calls), %d calls; call latency ms min %d p50 %d "
                        + "mean %.0f max %d; reply tokens min %d p50 %d max %d",
                rollouts.size(), replyTokens.length, toolTurns, latencies.size(), latencies.get(0),
                latencies.get(latencies.size() / 2), latencies.stream().mapToLong(Long::longValue).average().orElse(0),
                latencies.get(latencies.size() - 1), replyTokens[0], replyTokens[replyTokens.length / 2],
                replyTokens[replyTokens.length - 1]);
    }
}
