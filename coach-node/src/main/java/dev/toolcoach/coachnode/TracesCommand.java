package dev.toolcoach.coachnode;

import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceHtml;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.TracePrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code traces show|html RUN}: a run's recorded traces for people. {@code show} prints them turn by turn
 * ({@link TracePrinter}: what the model saw, said, how it was parsed, the tool output, warnings, reward), or lists
 * them; {@code html} writes the offline viewer ({@link TraceHtml}).
 */
@Command(name = "traces", mixinStandardHelpOptions = true,
        description = "Read a run's traces (RUN/traces.jsonl): print them or write an HTML viewer.",
        subcommands = {TracesCommand.Show.class, TracesCommand.Html.class})
public final class TracesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandOutput.INPUT_ERROR;
    }

    /** The run's traces: a run folder holding traces.jsonl, or a traces file itself. */
    static final class Source {
        @Parameters(index = "0", paramLabel = "RUN", description = "a run folder (holding traces.jsonl) or a traces .jsonl file")
        Path run;

        @Option(names = "--step", paramLabel = "N", description = "only the traces the job trained on at step N")
        Long step;

        Path file() {
            Path file = Files.isDirectory(run) ? run.resolve("traces.jsonl") : run;
            if (!Files.isRegularFile(file)) {
                throw new UsageException(Files.isDirectory(run) ? run + " holds no traces.jsonl (no step has been recorded yet)"
                        : run + " is neither a run folder nor a traces file");
            }
            return file;
        }

        /** The traces (of the step, when one is given); bad lines are told on stderr by number, never echoed. */
        List<Trace> read(CommandSpec spec) {
            Path file = file();
            JsonLines.Read<Trace> read = TraceJson.read(file);
            if (!read.skipped().isEmpty()) {
                PrintWriter err = spec.commandLine().getErr();
                err.println(file + ": " + read.skipped().size() + " unreadable line(s) skipped: " + read.skipped().stream().limit(5)
                        .map(s -> "line " + s.lineNumber() + " (" + s.reason() + ")").reduce((a, b) -> a + ", " + b).orElse(""));
                err.flush();
            }
            return read.items().stream().filter(t -> step == null || (t.jobStep().isPresent() && t.jobStep().getAsLong() == step))
                    .toList();
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print one trace (--trace), a step's traces (--step) turn by turn, or else a list of every trace.")
    public static final class Show implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        Source source;

        @Option(names = "--trace", paramLabel = "ID", description = "the rollout id of the trace to print")
        String trace;

        @Option(names = "--max-chars", paramLabel = "N", defaultValue = "2000",
                description = "longer texts are cut in the middle (default: ${DEFAULT-VALUE})")
        int maxChars;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                if (maxChars < 20) throw new UsageException("--max-chars must be at least 20, got " + maxChars);
                List<Trace> traces = source.read(spec);
                PrintWriter out = spec.commandLine().getOut();
                if (trace != null) {
                    Trace one = traces.stream().filter(t -> t.rolloutId().equals(trace)).findFirst()
                            .orElseThrow(() -> new UsageException("no trace '" + trace + "' in " + source.file()
                                    + (source.step == null ? "" : " at step " + source.step)));
                    out.print(new TracePrinter(maxChars).format(one));
                } else if (source.step != null) {
                    if (traces.isEmpty()) throw new UsageException("no trace of step " + source.step + " in " + source.file());
                    TracePrinter printer = new TracePrinter(maxChars);
                    for (Trace t : traces) out.print(printer.format(t) + "\n");
                } else {
                    list(out, traces);
                }
                out.flush();
                return 0;
            } catch (UsageException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }

        private static void list(PrintWriter out, List<Trace> traces) {
            out.printf(Locale.ROOT, "%-28s %5s %8s %5s %-10s %s%n", "TRACE", "STEP", "REWARD", "TURNS", "ENDED", "TOOLS");
            for (Trace t : traces) {
                out.printf(Locale.ROOT, "%-28s %5s %8s %5d %-10s %s%n", t.rolloutId(),
                        t.jobStep().isPresent() ? Long.toString(t.jobStep().getAsLong()) : "-",
                        t.reward().isPresent() ? String.format(Locale.ROOT, "%.3f", t.reward().getAsDouble()) : "-",
                        t.turns().size(), t.termination(), String.join(",", t.toolCalls().stream().map(c -> c.name()).distinct().toList()));
            }
            out.println(traces.size() + " trace(s); print one with --trace ID, a step's with --step N");
        }
    }

    @Command(name = "html", mixinStandardHelpOptions = true,
            description = "Write the traces as one self-contained, offline HTML viewer (search; filters by step, reward, tool;"
                    + " tokens coloured by log-prob or policy version).")
    public static final class Html implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        Source source;

        @Option(names = "--out", paramLabel = "FILE", description = "the HTML file to write (default: traces.html beside the traces)")
        Path out;

        @Option(names = "--model", paramLabel = "DIR",
                description = "the model folder whose tokenizer.json gives the tokens' text (default: the run's distilled/ or init/;"
                        + " without one the token view shows ids)")
        Path model;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                Path file = source.file();
                List<Trace> traces = source.read(spec);
                Path target = out != null ? out : file.resolveSibling("traces.html");
                Path tokenizer = tokenizerFile(file);
                String page;
                if (tokenizer == null) {
                    spec.commandLine().getErr().println("traces html: no tokenizer.json found (give --model DIR); the token view shows ids");
                    page = TraceHtml.render(title(file), traces, null);
                } else {
                    try (HfTokenizer tok = HfTokenizer.load(tokenizer, Integer.MAX_VALUE, -1, -1)) {
                        Map<Integer, String> cache = new HashMap<>();
                        page = TraceHtml.render(title(file), traces, id -> cache.computeIfAbsent(id, i -> tok.decode(new int[]{i})));
                    }
                }
                Files.writeString(target, page, StandardCharsets.UTF_8);
                Map<String, Object> summary = new LinkedHashMap<>();
                summary.put("file", target.toString());
                summary.put("traces", traces.size());
                summary.put("tokenizer", tokenizer == null ? null : tokenizer.toString());
                return CommandOutput.summary(spec, summary);
            } catch (UsageException | ModelLoadException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            } catch (IOException e) {
                return CommandOutput.error(spec, CommandOutput.RUN_ERROR, "cannot write " + e.getMessage());
            }
        }

        private String title(Path file) {
            Path folder = file.toAbsolutePath().getParent();
            return "Traces of " + (folder == null ? file : folder.getFileName())
                    + (source.step == null ? "" : " (step " + source.step + ")");
        }

        /** {@code --model}'s tokenizer, else the run folder's model (distilled/ after a warm-up, else init/), else none. */
        private Path tokenizerFile(Path traces) {
            if (model != null) {
                Path t = Files.isDirectory(model) ? model.resolve("tokenizer.json") : model;
                if (!Files.isRegularFile(t)) throw new UsageException("--model: " + model + " holds no tokenizer.json");
                return t;
            }
            Path run = traces.toAbsolutePath().getParent();
            return Stream.of("distilled", "init").map(d -> run.resolve(d).resolve("tokenizer.json"))
                    .filter(Files::isRegularFile).findFirst().orElse(null);
        }
    }
}
