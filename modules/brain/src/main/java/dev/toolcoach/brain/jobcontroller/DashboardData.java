package dev.toolcoach.brain.jobcontroller;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.run.ToolCallStats;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code GET /dashboard/data} answers: the coach node's job as the dashboard draws it.
 *
 * @param job     the current or last job ({@code GET /jobs}), null before any
 * @param steps   its learner steps (reward, accuracy, rollouts/s, policy lag curves)
 * @param coach   the coach's accounts (groups open, rollouts in flight, dropped and re-dispatched counts), null where
 *                no coach has run on this node
 * @param learner the learner's status, null where no learner has run on this node
 * @param nodes   the cluster's members, with the athletes each hosts
 * @param tools   tool results over the job's trained traces, by tool
 */
public record DashboardData(JobStatus job, List<StepLine> steps, CoachProgress coach, LearnerStatus learner, List<Node> nodes,
                            Map<String, ToolCallStats> tools) {

    /**
     * A cluster member.
     *
     * @param athletes athlete actors registered from it
     */
    public record Node(String address, List<String> roles, String status, int athletes) {
    }

    /** The tools' figures summed over the steps. */
    public static DashboardData of(JobStatus job, List<StepLine> steps, CoachProgress coach, LearnerStatus learner, List<Node> nodes) {
        Map<String, ToolCallStats> tools = new TreeMap<>();
        for (StepLine line : steps) line.toolCalls().forEach((tool, stats) -> tools.merge(tool, stats, ToolCallStats::plus));
        return new DashboardData(job, List.copyOf(steps), coach, learner, List.copyOf(nodes), tools);
    }

    /** The largest policy lag of any step so far. */
    @JsonProperty("max_policy_lag")
    public int maxPolicyLag() {
        return steps.stream().mapToInt(StepLine::maxPolicyLag).max().orElse(0);
    }
}
