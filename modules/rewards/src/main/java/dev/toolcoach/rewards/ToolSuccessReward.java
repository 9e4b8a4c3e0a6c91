package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;

import java.util.List;

/** The share of tool calls that ran without error; a run that called no tool scores 0 (nothing succeeded). */
public final class ToolSuccessReward implements TraceReward {

    @Override
    public double score(Trace trace, RewardContext example) {
        List<ToolResult> results = trace.toolResults();
        if (results.isEmpty()) return 0.0;
        return (double) results.stream().filter(ToolResult::ok).count() / results.size();
    }
}
