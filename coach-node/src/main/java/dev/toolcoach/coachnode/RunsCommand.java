package dev.toolcoach.coachnode;

import dev.toolcoach.brain.run.RewardCurve;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.taskjob.OracleRouteTable;
import dev.toolcoach.brain.taskjob.RunComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code runs}: runs of the train command side by side (seeds, recipes). */
@Command(name = "runs", mixinStandardHelpOptions = true, description = "Runs of the train command side by side.",
        subcommands = {RunsCommand.Compare.class})
public final class RunsCommand {

    /** {@code runs compare RUN...}: one line per run, the mean gain with its paired interval, the curves in one PNG. */
    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = "One line per run (accuracy after the warm-up and after training with 95%% intervals, the gain, "
                    + "pass@8, the warm-up's kept pass and held-out entropy), then the mean gain over the runs with its paired "
                    + "95%% interval (Student's t), and where the runs' errors are: accuracy per oracle route pooled over the runs "
                    + "after the warm-up and after training, with the lowest and highest run; with --png, the runs' learning "
                    + "curves in one chart.")
    static final class Compare implements Callable<Integer> {
        @Parameters(paramLabel = "RUN", arity = "1..*", description = "run folders (e.g. runs/finance-s1 runs/finance-s2 ...)")
        List<Path> runs;

        @Option(names = "--png", description = "write the runs' learning curves (per step, moving mean of 10) here")
        Path png;

        @Option(names = "--curve", description = "what the curves show: accuracy (of the groups trained on) or reward "
                + "(mean of every rollout sampled) (default: accuracy)")
        String curve = "accuracy";

        @Option(names = "--json", description = "print the runs and the summary as JSON instead of a table")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            List<RunComparison.Run> read;
            try {
                read = RunComparison.readAll(runs);
            } catch (IllegalArgumentException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
            RunComparison.Summary summary = RunComparison.summarise(read);
            if (png != null) {
                RewardCurve.Curve shown;
                try {
                    shown = RewardCurve.Curve.valueOf(curve.trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, "--curve: unknown curve '" + curve
                            + "'; valid: accuracy, reward");
                }
                Map<String, List<StepLine>> curves = new LinkedHashMap<>();
                read.forEach(r -> curves.put(r.name(), r.curve()));
                try {
                    RewardCurve.writeComparison(png, "learning curves", curves, shown);
                } catch (IllegalArgumentException | UncheckedIOException e) {
                    return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
                }
            }
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("runs", read.stream().map(RunsCommand::withoutCurve).toList());
                out.put("summary", summary);
                out.put("by_oracle_route", RunComparison.byRoute(read));
                return CommandOutput.summary(spec, out);
            }
            print(spec.commandLine().getOut(), read, summary);
            return 0;
        }
    }

    private static Map<String, Object> withoutCurve(RunComparison.Run r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("task", r.task());
        m.put("seed", r.seed());
        m.put("mode", r.mode());
        m.put("algorithm", r.algorithm());
        m.put("after_warmup", r.warmup());
        m.put("after_warmup_ci95", r.warmupCi());
        m.put("after_training", r.trained());
        m.put("after_training_ci95", r.trainedCi());
        m.put("gain", r.gain());
        m.put("examples", r.examples());
        m.put("pass_at_k_after_warmup", r.passAtKWarmup());
        m.put("pass_at_k_after_training", r.passAtKTrained());
        m.put("steps", r.steps());
        m.put("training_seconds", r.trainingSeconds());
        m.put("job_seconds", r.jobSeconds());
        m.put("warmup_kept_pass", r.keptPass());
        m.put("warmup_heldout_entropy", r.warmupEntropy());
        m.put("warmup_heldout_loss", r.warmupHeldOutLoss());
        m.put("by_oracle_route_after_warmup", r.warmupRoutes());
        m.put("by_oracle_route_after_training", r.trainedRoutes());
        return m;
    }

    static void print(PrintWriter out, List<RunComparison.Run> runs, RunComparison.Summary summary) {
        int width = Math.max(3, runs.stream().mapToInt(r -> r.name().length()).max().orElse(0));
        String format = "%-" + width + "s  %-9s %5s %-5s %7s %-17s %-17s %7s %-13s %5s %8s %6s %5s %8s%n";
        out.printf(Locale.ROOT, format, "run", "task", "seed", "mode", "n", "after warm-up", "after training", "gain",
                "pass@8 w→t", "steps", "train s", "job s", "pass", "entropy");
        for (RunComparison.Run r : runs) {
            out.printf(Locale.ROOT, format, r.name(), r.task(), r.seed(), r.mode(), r.examples(), accuracy(r.warmup(), r.warmupCi()),
                    accuracy(r.trained(), r.trainedCi()), r.gain() == null ? "-" : String.format(Locale.ROOT, "%+.1f", 100 * r.gain()),
                    percent(r.passAtKWarmup()) + "→" + percent(r.passAtKTrained()), r.steps(),
                    r.trainingSeconds() == null ? "-" : String.format(Locale.ROOT, "%.0f", r.trainingSeconds()),
                    r.jobSeconds() == null ? "-" : String.format(Locale.ROOT, "%.0f", r.jobSeconds()),
                    r.keptPass() == null ? "-" : r.keptPass(),
                    r.warmupEntropy() == null ? "-" : String.format(Locale.ROOT, "%.3f", r.warmupEntropy()));
        }
        if (summary.runs() == 0) {
            out.println("no run has both the warm-up's and the training's evaluation yet");
        } else {
            out.printf(Locale.ROOT, "%d runs: mean gain %+.1f points%s; improved in %d of %d; mean accuracy after training %.1f%%%n",
                    summary.runs(), 100 * summary.meanGain(), summary.ci95() == null ? ""
                            : String.format(Locale.ROOT, ", paired 95%% CI %+.1f to %+.1f", 100 * summary.ci95().get(0),
                            100 * summary.ci95().get(1)), summary.improved(), summary.runs(), 100 * summary.meanTrained());
        }
        OracleRouteTable.pooledLines(RunComparison.byRoute(runs)).forEach(out::println);
        out.flush();
    }

    private static String accuracy(Double value, List<Double> ci) {
        if (value == null) return "-";
        return ci == null ? percent(value) : String.format(Locale.ROOT, "%s (%.1f-%.1f)", percent(value), 100 * ci.get(0), 100 * ci.get(1));
    }

    private static String percent(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * value);
    }
}
