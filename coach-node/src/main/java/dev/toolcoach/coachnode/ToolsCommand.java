package dev.toolcoach.coachnode;

import dev.toolcoach.agent.adapt.Competence;
import dev.toolcoach.agent.adapt.PreferenceFile;
import dev.toolcoach.brain.run.ToolUseChart;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.tooluse.RunToolUse;
import dev.toolcoach.trace.tooluse.ToolStats;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code tools}: TILE's tool-use records (extracted from traces, reported per context and tool) and ADAPT's preferences. */
@Command(name = "tools", mixinStandardHelpOptions = true,
        description = "TILE tool use: extract tool-use records from traces, report them per context and tool.",
        subcommands = {ToolsCommand.Extract.class, ToolsCommand.Report.class, ToolsCommand.Preferences.class})
public final class ToolsCommand {

    /** {@code tools extract TRACES}: one tool-use record per tool call of every trace. */
    @Command(name = "extract", mixinStandardHelpOptions = true,
            description = "Write the tool-use records (tool_use.jsonl) of a traces.jsonl; bad lines are skipped and counted.")
    static final class Extract implements Callable<Integer> {
        @Parameters(paramLabel = "TRACES", description = "a traces.jsonl, or a run folder holding one")
        Path traces;

        @Option(names = "--task", description = "the context of every record: task:NAME (default: a hash of each trace's query)")
        String task;

        @Option(names = "--run", description = "the run id of the records (default: the folder holding the traces)")
        String run;

        @Option(names = {"-o", "--out"}, description = "the file written (default: tool_use.jsonl beside the traces; replaced)")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Path file = Files.isDirectory(traces) ? traces.resolve("traces.jsonl") : traces;
            if (!Files.isRegularFile(file)) return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, file + " is not a file");
            try {
                JsonLines.Read<Trace> read = TraceJson.read(file);
                Path folder = file.toAbsolutePath().getParent();
                String runId = run != null ? run : folder.getFileName() == null ? null : folder.getFileName().toString();
                List<ToolUseRecord> records = ToolUse.records(read.items(), runId, task);
                Path target = out != null ? out : folder.resolve(ToolUse.FILE);
                ToolUse.write(target, records);
                PrintWriter err = spec.commandLine().getErr();
                read.skipped().forEach(s -> err.println("tools extract: " + file + " line " + s.lineNumber() + " skipped: " + s.reason()));
                err.flush();
                return CommandOutput.summary(spec, new java.util.LinkedHashMap<>(java.util.Map.of("traces", read.items().size(),
                        "skipped_lines", read.skipped().size(), "records", records.size(), "file", target.toString())));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }
    }

    /** {@code tools report RUN|FILE}: the table on stdout, the chart as a PNG. */
    @Command(name = "report", mixinStandardHelpOptions = true,
            description = "Per context and tool: calls, success rate, failures by kind, retries, repeats (overuse); "
                    + "a table on stdout and a PNG chart.")
    static final class Report implements Callable<Integer> {
        @Parameters(paramLabel = "RUN|FILE", description = "a run folder (its tool_use.jsonl, else its traces.jsonl) or a tool-use or traces file")
        Path source;

        @Option(names = "--chart", description = "the PNG written (default: tool_use.png beside the records; none with --no-chart)")
        Path chart;

        @Option(names = "--no-chart", description = "print the table only")
        boolean noChart;

        @Option(names = "--all-contexts", description = "one line per tool over all contexts")
        boolean allContexts;

        @Option(names = "--by-run", description = "then one line per run id (a training run, each evaluation phase): "
                + "trajectories with calls, solved (episode reward >= 1), calls per solved task with its 95%% interval, "
                + "failed calls, retries, repeats")
        boolean byRun;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                List<ToolUseRecord> records = records();
                if (records.isEmpty()) return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, source + " holds no tool calls");
                List<ToolStats> stats = ToolStats.of(records, !allContexts);
                print(spec.commandLine().getOut(), stats);
                if (byRun) printRuns(spec.commandLine().getOut(), RunToolUse.of(records));
                if (!noChart) {
                    Path png = chart != null ? chart : folder().resolve("tool_use.png");
                    ToolUseChart.write(png, "tool use: " + source.toAbsolutePath().normalize().getFileName(), stats);
                    spec.commandLine().getErr().println("chart: " + png);
                    spec.commandLine().getErr().flush();
                }
                return 0;
            } catch (IllegalArgumentException | UncheckedIOException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }

        private Path folder() {
            return Files.isDirectory(source) ? source : source.toAbsolutePath().getParent();
        }

        /** The records of a tool-use file, or extracted from a traces file; a file is told by its first record's fields. */
        private List<ToolUseRecord> records() {
            Path file = source;
            if (Files.isDirectory(source)) {
                file = Files.isRegularFile(source.resolve(ToolUse.FILE)) ? source.resolve(ToolUse.FILE) : source.resolve("traces.jsonl");
            }
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException(file + " is not a file");
            JsonLines.Read<?> read;
            List<ToolUseRecord> records;
            if (isTraces(file)) {
                JsonLines.Read<Trace> traces = TraceJson.read(file);
                read = traces;
                Path folder = file.toAbsolutePath().getParent();
                records = ToolUse.records(traces.items(), folder.getFileName() == null ? null : folder.getFileName().toString(), null);
            } else {
                JsonLines.Read<ToolUseRecord> uses = ToolUse.read(file);
                read = uses;
                records = uses.items();
            }
            Path shown = file;
            read.skipped().forEach(s -> spec.commandLine().getErr().println("tools report: " + shown + " line " + s.lineNumber()
                    + " skipped: " + s.reason()));
            return records;
        }

        private static boolean isTraces(Path file) {
            try (var lines = Files.lines(file)) {
                return lines.filter(l -> !l.isBlank()).findFirst().map(l -> l.contains("\"rollout_id\"")).orElse(false);
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
            }
        }

        static void print(PrintWriter out, List<ToolStats> stats) {
            int width = Math.max(7, stats.stream().mapToInt(s -> s.context().length()).max().orElse(0));
            int toolWidth = Math.max(4, stats.stream().mapToInt(s -> s.tool().length()).max().orElse(0));
            String format = "%-" + width + "s  %-" + toolWidth + "s %7s %8s %7s %7s %7s %10s %9s  %s%n";
            out.printf(Locale.ROOT, format, "context", "tool", "calls", "success", "failed", "retries", "repeats", "calls/traj",
                    "ms/call", "failures");
            for (ToolStats s : stats) {
                out.printf(Locale.ROOT, format, s.context(), s.tool(), s.calls(),
                        String.format(Locale.ROOT, "%.1f%%", 100 * s.successRate()), s.failed(), s.retries(), s.repeats(),
                        String.format(Locale.ROOT, "%.2f", s.callsPerTrajectory()),
                        String.format(Locale.ROOT, "%.1f", s.meanLatencyMillis()),
                        s.failures().entrySet().stream().map(e -> e.getKey().name().toLowerCase(Locale.ROOT) + "=" + e.getValue())
                                .collect(Collectors.joining(" ")));
            }
            out.flush();
        }
    }

    static void printRuns(PrintWriter out, List<RunToolUse> runs) {
        int width = Math.max(3, runs.stream().mapToInt(r -> r.run().length()).max().orElse(0));
        String format = "%-" + width + "s %12s %7s %7s %10s %22s %7s %11s %7s %7s%n";
        out.println();
        out.printf(Locale.ROOT, format, "run", "trajectories", "solved", "calls", "calls/traj", "calls/solved (95% CI)", "failed",
                "failed/traj", "retries", "repeats");
        for (RunToolUse r : runs) {
            String perSolved = r.solved() == 0 ? "-" : String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", r.callsPerSolved(),
                    r.callsPerSolvedCi95().get(0), r.callsPerSolvedCi95().get(1));
            out.printf(Locale.ROOT, format, r.run(), r.trajectories(), r.scored() == 0 ? "-" : Long.toString(r.solved()), r.calls(),
                    String.format(Locale.ROOT, "%.3f", r.callsPerTrajectory()), perSolved, r.failed(),
                    String.format(Locale.ROOT, "%.3f", r.failedPerTrajectory()), r.retries(), r.repeats());
        }
        out.flush();
    }

    /** {@code tools preferences FILE}: ADAPT's status from a preference file: Beta, competence, thresholds, retirement. */
    @Command(name = "preferences", mixinStandardHelpOptions = true,
            description = "ADAPT status of a preference file (a run's tile_preferences.json): alpha, beta, competence "
                    + "C = alpha/(alpha+beta) and its level per context and tool, retirement flags (reported, never applied).")
    static final class Preferences implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "a preference file, or a run folder holding tile_preferences.json")
        Path file;

        @Option(names = "--retire-after", defaultValue = "20",
                description = "episodes unused (with C < 0.3) before a tool is flagged for retirement (default: ${DEFAULT-VALUE})")
        long retireAfter;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Path source = Files.isDirectory(file) ? file.resolve(dev.toolcoach.brain.Brain.PREFERENCES_FILE) : file;
            try {
                PreferenceFile.Snapshot snapshot = PreferenceFile.snapshot(source, null);
                PrintWriter out = spec.commandLine().getOut();
                String format = "%-24s %-24s %9s %9s %8s %8s %6s  %-14s %7s  %s%n";
                out.printf(Locale.ROOT, format, "context", "tool", "successes", "failures", "alpha", "beta", "C", "level", "unused", "retire");
                for (Competence.ContextCompetence c : Competence.report(snapshot.preferences(), java.util.Map.of(), retireAfter)) {
                    for (Competence.ToolCompetence t : c.tools()) {
                        out.printf(Locale.ROOT, format, c.context(), t.tool(), t.successes(), t.failures(),
                                String.format(Locale.ROOT, "%.1f", t.alpha()), String.format(Locale.ROOT, "%.1f", t.beta()),
                                String.format(Locale.ROOT, "%.3f", t.competence()), t.level().name().toLowerCase(Locale.ROOT),
                                t.episodesUnused(), t.retire() ? "RETIRE?" : "");
                    }
                    if (c.exploreNewTools()) out.printf(Locale.ROOT, "%s: every tool above C %.1f: time to explore new tools%n",
                            c.context(), Competence.EXPLORE_ALL_ABOVE);
                }
                out.flush();
                return 0;
            } catch (IllegalArgumentException | UncheckedIOException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }
    }
}
