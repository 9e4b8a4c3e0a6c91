package dev.toolcoach.bench.tile;

import dev.toolcoach.model.ComputeDevice;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.adapt.AdaptiveToolEnvironment;
import dev.toolcoach.agent.adapt.EquivalentTools;
import dev.toolcoach.agent.adapt.Experience;
import dev.toolcoach.agent.adapt.ToolPreferences;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.eval.TaskEvaluation;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.tooluse.ContextKey;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * TILE's ADAPT measured without weight updates: a trained finance run's model (its distilled base and adapter) on its
 * test split, where every finance tool fails part of the time and has an always-working equivalent ({@link
 * UnreliableTools}). ADAPT off: the agent's calls go to the tools it names. ADAPT on: Thompson sampling between each
 * tool and its equivalent. Same model, same queries, same failures; episodes in rounds so preferences carry over.
 * Then the federated merge: two "nodes" see disjoint query contexts (query hashes); node A on node B's contexts before
 * and after taking B's experience (the exact sum, as the replicated counters give it).
 *
 * <p>{@code AdaptBench RUN_DIR DATA_DIR [failure=0.5] [seed=1] [round=10]}
 */
public final class AdaptBench {
    private AdaptBench() {
    }

    record Episode(boolean correct, int calls, int failed, int backupCalls) {
    }

    public static void main(String[] args) throws Exception {
        Path run = Path.of(args[0]);
        Path data = Path.of(args[1]);
        double failure = args.length > 2 ? Double.parseDouble(args[2]) : 0.5;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        int round = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        JsonNode config = new ObjectMapper().readTree(run.resolve("config.json").toFile());
        ScratchRecipe recipe = new ObjectMapper().treeToValue(config.get("recipe"), ScratchRecipe.class);
        long splitSeed = config.get("seed").asLong();
        Task task = TaskRegistry.standard(data, splitSeed).get("finance");
        List<TaskExample> test = TaskTrainingJob.split(task, splitSeed, recipe.evaluation().testExamples()).test();
        AgentConfig agent = recipe.greedyAgent();
        System.out.printf(Locale.ROOT, "ADAPT bench: run %s, %d test queries, failure %.2f, seed %d, rounds of %d%n",
                run.getFileName(), test.size(), failure, seed, round);
        try (LocalPolicy policy = LocalPolicy.load(run.resolve("distilled"), null, run.resolve("adapter"), round, ComputeDevice.cpu());
             ToolExecutor executor = new ToolExecutor(BuiltinSuites.open("finance", TaskTrainingJob.toolOptions(data)).suite(),
                     ExecutorSettings.defaults())) {
            UnreliableTools flakyOnly = new UnreliableTools(executor, failure, seed, false);
            UnreliableTools withBackups = new UnreliableTools(executor, failure, seed, true);
            EquivalentTools equivalent = new EquivalentTools(withBackups.groups());

            List<Episode> off = run(policy, flakyOnly, agent, task, test, round, "off");
            ToolPreferences on = new ToolPreferences(ToolPreferences.Prior.UNIFORM, seed);
            List<Episode> adapt = run(policy, new AdaptiveToolEnvironment(withBackups, on, equivalent, ContextKey.task("finance")),
                    agent, task, test, round, "on");
            summary("ADAPT off", off);
            summary("ADAPT on ", adapt);
            paired(off, adapt);

            // federated merge: contexts by query hash, split in two disjoint halves
            Map<String, String> contextOf = new HashMap<>();
            test.forEach(e -> contextOf.put("eval-" + e.id(), ContextKey.ofQuery(e.query())));
            List<String> contexts = new ArrayList<>(new TreeSet<>(contextOf.values()));
            List<String> mine = contexts.subList(0, contexts.size() / 2);
            List<TaskExample> forA = test.stream().filter(e -> mine.contains(ContextKey.ofQuery(e.query()))).toList();
            List<TaskExample> forB = test.stream().filter(e -> !mine.contains(ContextKey.ofQuery(e.query()))).toList();
            ToolPreferences a = new ToolPreferences(ToolPreferences.Prior.UNIFORM, seed);
            ToolPreferences b = new ToolPreferences(ToolPreferences.Prior.UNIFORM, seed + 1);
            run(policy, new AdaptiveToolEnvironment(withBackups, a, equivalent, t -> contextOf.get(t)), agent, task, forA, round, "node A");
            run(policy, new AdaptiveToolEnvironment(withBackups, b, equivalent, t -> contextOf.get(t)), agent, task, forB, round, "node B");
            ToolPreferences before = copy(a, seed + 2);
            ToolPreferences merged = copy(a, seed + 2);
            merged.restore(b.all());
            long exact = merged.all().entrySet().stream().filter(en -> {
                ToolPreferences.Key k = en.getKey();
                double alpha = merged.alpha(k.context(), k.tool());
                return alpha == a.alpha(k.context(), k.tool()) + b.alpha(k.context(), k.tool()) - merged.prior().alpha()
                        && merged.beta(k.context(), k.tool()) == a.beta(k.context(), k.tool()) + b.beta(k.context(), k.tool()) - merged.prior().beta();
            }).count();
            System.out.printf(Locale.ROOT, "merge: %d of %d (context, tool) pairs with alpha = alpha_A + alpha_B - alpha_prior and likewise beta%n",
                    exact, merged.all().size());
            List<Episode> aBefore = run(policy, new AdaptiveToolEnvironment(withBackups, before, equivalent, t -> contextOf.get(t)),
                    agent, task, forB, forB.size(), "A on B's contexts, before merge");
            List<Episode> aAfter = run(policy, new AdaptiveToolEnvironment(withBackups, merged, equivalent, t -> contextOf.get(t)),
                    agent, task, forB, forB.size(), "A on B's contexts, after merge");
            System.out.printf(Locale.ROOT, "contexts: A %d (%d queries), B %d (%d queries)%n", mine.size(), forA.size(),
                    contexts.size() - mine.size(), forB.size());
            summary("node A on B's contexts before merge", aBefore);
            summary("node A on B's contexts after merge ", aAfter);
            paired(aBefore, aAfter);
        }
    }

    private static ToolPreferences copy(ToolPreferences p, long seed) {
        ToolPreferences out = new ToolPreferences(p.prior(), seed);
        out.restore(p.all());
        return out;
    }

    private static List<Episode> run(LocalPolicy policy, ToolEnvironment tools, AgentConfig agent, Task task, List<TaskExample> examples,
                                     int round, String label) {
        TaskEvaluation evaluation = new TaskEvaluation(policy.tokenizer(), policy.chatFormat(), policy.generator(), tools, agent, task.reward());
        List<Episode> out = new ArrayList<>();
        for (int from = 0; from < examples.size(); from += round) {
            EvaluationReport report = evaluation.evaluate(examples.subList(from, Math.min(examples.size(), from + round)));
            int before = out.size();
            for (EvaluationReport.Outcome o : report.outcomes()) {
                List<ToolResult> results = o.trace().toolResults();
                out.add(new Episode(o.correct(), results.size(), (int) results.stream().filter(r -> !r.ok()).count(),
                        (int) results.stream().filter(r -> r.call().name().endsWith(UnreliableTools.BACKUP)).count()));
            }
            List<Episode> these = out.subList(before, out.size());
            int calls = these.stream().mapToInt(Episode::calls).sum();
            System.out.printf(Locale.ROOT, "  %-34s round %2d: success %d/%d, failed calls %d of %d, served by the reliable tool %d%n",
                    label, from / round + 1, these.stream().filter(Episode::correct).count(), these.size(),
                    these.stream().mapToInt(Episode::failed).sum(), calls, these.stream().mapToInt(Episode::backupCalls).sum());
        }
        return out;
    }

    private static void summary(String label, List<Episode> episodes) {
        int n = episodes.size();
        long k = episodes.stream().filter(Episode::correct).count();
        double p = (double) k / n;
        double z = 1.96;
        double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
        double[] failed = episodes.stream().mapToDouble(Episode::failed).toArray();
        double mean = java.util.Arrays.stream(failed).average().orElse(0);
        double sd = Math.sqrt(java.util.Arrays.stream(failed).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, n - 1));
        System.out.printf(Locale.ROOT, "%s: success %d/%d = %.3f (95%% Wilson CI %.3f-%.3f); failed calls per episode %.3f "
                        + "(95%% CI %.3f-%.3f); calls per episode %.3f%n", label, k, n, p, centre - half, centre + half, mean,
                mean - z * sd / Math.sqrt(n), mean + z * sd / Math.sqrt(n), episodes.stream().mapToInt(Episode::calls).average().orElse(0));
    }

    /** Paired differences (second − first) over the same queries, with normal 95% CIs. */
    private static void paired(List<Episode> first, List<Episode> second) {
        int n = first.size();
        double[] ds = new double[n];
        double[] df = new double[n];
        for (int i = 0; i < n; i++) {
            ds[i] = (second.get(i).correct() ? 1 : 0) - (first.get(i).correct() ? 1 : 0);
            df[i] = second.get(i).failed() - first.get(i).failed();
        }
        System.out.printf(Locale.ROOT, "paired difference over %d queries: success %s, failed calls per episode %s%n", n, ci(ds), ci(df));
    }

    private static String ci(double[] d) {
        double mean = java.util.Arrays.stream(d).average().orElse(0);
        double sd = Math.sqrt(java.util.Arrays.stream(d).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, d.length - 1));
        double half = 1.96 * sd / Math.sqrt(d.length);
        return String.format(Locale.ROOT, "%+.3f (95%% CI %+.3f to %+.3f)", mean, mean - half, mean + half);
    }
}
