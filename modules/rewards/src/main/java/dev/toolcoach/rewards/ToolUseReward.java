package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;

import java.util.List;
import java.util.Objects;

/**
 * TILE's surrogate rewards, read from a trajectory's tool-use records (so "retry" means what OBSERVE records):
 * call success rate, efficiency 1/calls, the retry count, and the composite
 * {@code R = α·success + β·(1/calls) + γ·outcome − δ·retries}, where outcome is the task's reward.
 * A trajectory without calls has success rate 0 and efficiency 0: it did nothing with tools to reward.
 */
public final class ToolUseReward implements TraceReward {

    /**
     * The composite's weights.
     *
     * @param success α, on the call success rate
     * @param efficiency β, on 1/calls
     * @param outcome γ, on the task reward
     * @param retries δ, per retry (subtracted)
     */
    public record Weights(double success, double efficiency, double outcome, double retries) {
        public Weights {
            for (double w : new double[]{success, efficiency, outcome, retries}) {
                if (!Double.isFinite(w) || w < 0) {
                    throw new IllegalArgumentException("tool reward weights must be finite and >= 0, were "
                            + List.of(success, efficiency, outcome, retries));
                }
            }
        }

        /** The weights written {@code α,β,γ,δ}, e.g. {@code 0.2,0.1,1,0.05}. */
        public static Weights parse(String text) {
            String[] parts = text.split(",", -1);
            if (parts.length != 4) {
                throw new IllegalArgumentException("tool reward weights must be four numbers α,β,γ,δ (success, efficiency, "
                        + "outcome, retries), got " + parts.length);
            }
            double[] w = new double[4];
            for (int i = 0; i < 4; i++) {
                try {
                    w[i] = Double.parseDouble(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("tool reward weight " + (i + 1) + " is not a number");
                }
            }
            return new Weights(w[0], w[1], w[2], w[3]);
        }
    }

    private final Weights weights;
    private final TraceReward outcome;

    /** @param outcome the task reward (γ's term); may be null only when γ is 0 */
    public ToolUseReward(Weights weights, TraceReward outcome) {
        this.weights = Objects.requireNonNull(weights, "weights");
        if (outcome == null && weights.outcome() != 0) {
            throw new IllegalArgumentException("the composite tool reward weighs the outcome but has no task reward");
        }
        this.outcome = outcome;
    }

    /** Share of the trajectory's calls that succeeded; 0 without calls. */
    public static double successRate(List<ToolUseRecord> calls) {
        return calls.isEmpty() ? 0 : (double) calls.stream().filter(ToolUseRecord::success).count() / calls.size();
    }

    /** 1/calls; 0 without calls. */
    public static double efficiency(List<ToolUseRecord> calls) {
        return calls.isEmpty() ? 0 : 1.0 / calls.size();
    }

    public static long retries(List<ToolUseRecord> calls) {
        return calls.stream().filter(ToolUseRecord::retry).count();
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        List<ToolUseRecord> calls = ToolUse.records(trace, null, null, null);
        double r = weights.success() * successRate(calls) + weights.efficiency() * efficiency(calls)
                - weights.retries() * retries(calls);
        return weights.outcome() == 0 ? r : r + weights.outcome() * outcome.score(trace, example);
    }
}
