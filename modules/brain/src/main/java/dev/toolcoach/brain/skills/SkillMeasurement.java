package dev.toolcoach.brain.skills;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.tools.skills.SkillDefinition;
import dev.toolcoach.tools.skills.SkillLibrary;
import dev.toolcoach.tools.skills.SkillPlans;
import dev.toolcoach.tools.skills.SkillSuites;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.tooluse.ToolUse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The CRYSTALLIZE measurement: tool calls per solved task before and after the composites are registered, same agent,
 * same queries. The agent is the task's oracle agent (the real agent loop replaying each example's oracle turns over
 * the real tools); once skills are registered it calls a skill wherever its plan makes the skill's calls. Skills are
 * mined from the oracle's rollouts of {@code mine} examples, validated and approved automatically, and measured on
 * {@code eval} examples they were not mined from. The oracle's answer is fixed in advance, so a task counts as
 * solved only when the task reward gives full marks, every call succeeded, and the answer rests on the same evidence
 * as the oracle's own plan: the last tool result the agent received is the one the plan without skills receives (a
 * composite that read the wrong message, or computed from the wrong value, fails this).
 */
public final class SkillMeasurement {

    /** One arm: how many examples, how many solved, and the calls of each solved one. */
    public record Arm(String name, int examples, int solved, List<Integer> callsPerSolved) {
        public double successRate() {
            return examples == 0 ? 0 : (double) solved / examples;
        }

        /** Wilson score interval (95 %) of the success rate. */
        public double[] successInterval() {
            return wilson(solved, examples);
        }

        public double meanCalls() {
            return callsPerSolved.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
        }

        /** Normal-approximation 95 % interval of the mean calls per solved task. */
        public double[] callsInterval() {
            int n = callsPerSolved.size();
            if (n < 2) return new double[]{meanCalls(), meanCalls()};
            double mean = meanCalls();
            double variance = callsPerSolved.stream().mapToDouble(c -> (c - mean) * (c - mean)).sum() / (n - 1);
            double half = 1.96 * Math.sqrt(variance / n);
            return new double[]{mean - half, mean + half};
        }

        @Override
        public String toString() {
            double[] s = successInterval();
            double[] c = callsInterval();
            return String.format(Locale.ROOT, "%s: solved %d/%d = %.3f [95%% CI %.3f, %.3f]; calls per solved task %.3f [%.3f, %.3f]",
                    name, solved, examples, successRate(), s[0], s[1], meanCalls(), c[0], c[1]);
        }
    }

    /** The mining report, the skills registered, and the two arms. */
    public record Result(Crystallizer.Report mining, List<String> registered, Arm before, Arm after) {
    }

    private final AgentConfig agent;
    private final TraceReward reward;

    /** @param agent the agent's format and turn limits (token limits are lifted: the replay counts bytes) */
    public SkillMeasurement(AgentConfig agent, TraceReward reward) {
        this.agent = agent.withLimits(agent.maxTurns(), Integer.MAX_VALUE).withSampling(SamplingParams.greedy(Integer.MAX_VALUE));
        this.reward = reward;
    }

    public Result run(List<TaskExample> mine, List<TaskExample> eval, ToolSuite base, SkillLibrary library,
                      Crystallizer.Settings settings, String source) throws IOException {
        Crystallizer.Report report;
        List<Rollout> plain;
        try (ToolExecutor tools = new ToolExecutor(base, ExecutorSettings.defaults())) {
            List<Trace> mined = rollouts(mine, tools).stream().map(r -> scored(r.example(), r.trace())).toList();
            report = new Crystallizer(settings).crystallize(mined, base, library, source);
            plain = rollouts(eval, tools);
        }
        List<SkillDefinition> approved = library.approved(base.name());
        List<Rollout> skilled;
        try (ToolExecutor tools = new ToolExecutor(SkillSuites.extend(base, approved), ExecutorSettings.defaults())) {
            skilled = rollouts(eval.stream().map(e -> usingSkills(e, approved)).toList(), tools);
        }
        Arm before = arm("before", plain, plain);
        Arm after = arm("after", skilled, plain);
        return new Result(report, approved.stream().map(SkillDefinition::name).toList(), before, after);
    }

    private record Rollout(TaskExample example, Trace trace) {
    }

    private List<Rollout> rollouts(List<TaskExample> examples, ToolExecutor tools) {
        List<CompletableFuture<Trace>> runs = examples.stream().map(e -> OracleRollout.run(e, tools, agent).toCompletableFuture()).toList();
        List<Rollout> done = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) done.add(new Rollout(examples.get(i), runs.get(i).join()));
        return done;
    }

    /** The trace with its task reward recorded where the run recorder records it, which the miner reads. */
    private Trace scored(TaskExample example, Trace t) {
        return t.withReward(reward.score(example, t));
    }

    /** The arm's solved tasks: full marks, every call succeeded, and the same last tool result as the plain plan's. */
    private Arm arm(String name, List<Rollout> rollouts, List<Rollout> plain) {
        List<Integer> calls = new ArrayList<>();
        for (int i = 0; i < rollouts.size(); i++) {
            Rollout r = rollouts.get(i);
            List<ToolResult> results = r.trace().toolResults();
            boolean solved = reward.score(r.example(), r.trace()) >= 1.0 && !results.isEmpty()
                    && results.stream().allMatch(ToolResult::ok) && lastText(results).equals(lastText(plain.get(i).trace().toolResults()));
            if (solved) calls.add(results.size());
        }
        return new Arm(name, rollouts.size(), calls.size(), calls);
    }

    private static String lastText(List<ToolResult> results) {
        return results.isEmpty() ? "" : results.get(results.size() - 1).text();
    }

    /** The example with its oracle plan using the skills: each run of one-call steps that makes a skill's calls becomes one call of it. */
    static TaskExample usingSkills(TaskExample example, List<SkillDefinition> skills) {
        List<OracleStep> plan = example.solution();
        List<OracleStep> rewritten = new ArrayList<>();
        int i = 0;
        while (i < plan.size()) {
            Optional<ToolCall> composite = Optional.empty();
            int length = 0;
            for (SkillDefinition skill : skills) {
                int n = skill.steps().size();
                if (i + n > plan.size() || !plan.subList(i, i + n).stream().allMatch(s -> s.calls().size() == 1)) continue;
                composite = SkillPlans.replace(plan.subList(i, i + n).stream().map(s -> s.calls().get(0)).toList(), skill);
                if (composite.isPresent()) {
                    length = n;
                    break;
                }
            }
            if (composite.isPresent()) {
                rewritten.add(OracleStep.call("The skill " + composite.get().name() + " makes these calls at once.", composite.get()));
                i += length;
            } else {
                rewritten.add(plan.get(i++));
            }
        }
        return new TaskExample(example.id(), example.messages(), example.tools(), example.goldAnswer(), rewritten, example.gold());
    }

    private static double[] wilson(int successes, int n) {
        if (n == 0) return new double[]{0, 0};
        double z = 1.96;
        double p = (double) successes / n;
        double denominator = 1 + z * z / n;
        double centre = (p + z * z / (2 * n)) / denominator;
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denominator;
        return new double[]{Math.max(0, centre - half), Math.min(1, centre + half)};
    }
}
