package dev.toolcoach.coachnode;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.skills.SkillMeasurement;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.tools.skills.SkillCard;
import dev.toolcoach.tools.skills.SkillDefinition;
import dev.toolcoach.tools.skills.SkillLibrary;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code skills}: CRYSTALLIZE from the command line. {@code mine} turns recorded traces into validated composite tools
 * in a skill folder; {@code list} shows them with their provenance; {@code approve} registers a pending one (tool
 * nodes reading the folder pick it up while they run); {@code measure} is the before/after measurement.
 */
@Command(name = "skills", mixinStandardHelpOptions = true,
        description = "Crystallised skills: mine composite tools from traces, list, approve, measure.",
        subcommands = {SkillsCommand.Mine.class, SkillsCommand.ListSkills.class, SkillsCommand.Approve.class,
                SkillsCommand.Measure.class})
public final class SkillsCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, "name a subcommand: mine, list, approve or measure");
    }

    /** The miner's settings, shared by {@code mine} and {@code measure}. */
    static final class MiningOptions {
        @Option(names = "--min-length", defaultValue = "3", description = "fewest calls in a pattern (default ${DEFAULT-VALUE})")
        int minLength;

        @Option(names = "--max-length", defaultValue = "6", description = "most calls in a pattern (default ${DEFAULT-VALUE})")
        int maxLength;

        @Option(names = "--min-support", defaultValue = "3",
                description = "fewest successful trajectories holding a pattern (default ${DEFAULT-VALUE})")
        int minSupport;

        @Option(names = "--min-reward", defaultValue = "1.0",
                description = "recorded reward at which a trace counts as successful (default ${DEFAULT-VALUE})")
        double minReward;

        @Option(names = "--output-caps", split = ",", description = "the tool output caps the traces' results went through, in "
                + "order: the tool executor's, then the agent's (default: 16000,1000, the executor's and the task recipe's)")
        List<Integer> outputCaps;

        Crystallizer.Settings settings(boolean approve, List<Integer> defaultCaps) {
            return new Crystallizer.Settings(minLength, Math.max(minLength, maxLength), minSupport, minReward, approve,
                    Duration.ofSeconds(10), outputCaps != null ? outputCaps : defaultCaps);
        }
    }

    @Command(name = "mine", mixinStandardHelpOptions = true,
            description = "Mine frequent call sequences of successful traces into validated composite tools (JSON report).")
    static final class Mine implements Callable<Integer> {
        @Option(names = "--traces", required = true, description = "a traces.jsonl (a run folder's)")
        Path traces;

        @Option(names = "--suite", required = true, description = "the built-in suite the traces called: arithmetic, finance, email, sql")
        String suite;

        @Option(names = "--dir", required = true, description = "the skill folder to add the skills to")
        Path dir;

        @Option(names = "--data-dir", defaultValue = "../shared/data", description = "shared data (the email suite's mail; default ${DEFAULT-VALUE})")
        Path dataDir;

        @Option(names = "--approve", description = "approve validated skills at once (else they wait for `skills approve`)")
        boolean approve;

        @Mixin
        MiningOptions mining;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                if (!Files.isRegularFile(traces)) throw new IllegalArgumentException(traces + " is not a file");
                JsonLines.Read<Trace> read = TraceJson.read(traces);
                BuiltinSuites.Hosted hosted = BuiltinSuites.open(suite, TaskTrainingJob.toolOptions(dataDir));
                try (hosted) {
                    Crystallizer.Report report = new Crystallizer(mining.settings(approve, recordedCaps(ScratchRecipe.defaults().greedyAgent())))
                            .crystallize(read.items(), hosted.suite(), new SkillLibrary(dir), traces.toString());
                    Map<String, Object> summary = report(report);
                    summary.put("skipped_lines", read.skipped().stream().map(s -> "line " + s.lineNumber() + ": " + s.reason()).toList());
                    return CommandOutput.summary(spec, summary);
                }
            } catch (Exception e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, String.valueOf(e.getMessage()));
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The skills of a folder with their provenance (JSON).")
    static final class ListSkills implements Callable<Integer> {
        @Option(names = "--dir", required = true, description = "the skill folder")
        Path dir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                return CommandOutput.summary(spec, new SkillLibrary(dir).all().stream().map(SkillsCommand::row).toList());
            } catch (IllegalArgumentException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }
    }

    @Command(name = "approve", mixinStandardHelpOptions = true,
            description = "Approve a pending skill: tool nodes reading the folder register it while they run.")
    static final class Approve implements Callable<Integer> {
        @Option(names = "--dir", required = true, description = "the skill folder")
        Path dir;

        @Parameters(paramLabel = "NAME", description = "the skill's name")
        String name;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                return CommandOutput.summary(spec, row(new SkillLibrary(dir).approve(name)));
            } catch (IllegalArgumentException | IOException e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
            }
        }
    }

    @Command(name = "measure", mixinStandardHelpOptions = true,
            description = "Tool calls per solved task before and after skills mined from the task's oracle rollouts are registered (JSON).")
    static final class Measure implements Callable<Integer> {
        @Mixin
        TaskOptions taskOptions;

        @Option(names = "--dir", required = true, description = "an empty or new skill folder the mined skills go to")
        Path dir;

        @Option(names = "--mine", defaultValue = "30", description = "training examples whose oracle rollouts are mined (default ${DEFAULT-VALUE})")
        int mine;

        @Option(names = "--examples", defaultValue = "50", description = "test examples measured (default ${DEFAULT-VALUE})")
        int examples;

        @Mixin
        MiningOptions mining;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try {
                if (Files.isDirectory(dir) && !new SkillLibrary(dir).all().isEmpty()) {
                    throw new IllegalArgumentException(dir + " already holds skills; measure into a new folder");
                }
                long seed = taskOptions.seedOr(1L);
                Task task = TaskRegistry.standard(taskOptions.dataDir, seed).get(taskOptions.requiredTask());
                if (task.toolSuites().size() != 1) throw new IllegalArgumentException("task '" + task.name() + "' has no one built-in suite");
                Split split = TaskTrainingJob.split(task, seed, ScratchRecipe.Evaluation.defaults().testExamples());
                List<TaskExample> mined = split.train().subList(0, Math.min(mine, split.train().size()));
                List<TaskExample> measured = split.test().subList(0, Math.min(examples, split.test().size()));
                BuiltinSuites.Hosted hosted = BuiltinSuites.open(task.toolSuites().get(0), TaskTrainingJob.toolOptions(taskOptions.dataDir));
                try (hosted) {
                    AgentConfig agent = ScratchRecipe.defaults().greedyAgent();
                    SkillMeasurement.Result result = new SkillMeasurement(agent, task.reward())
                            .run(mined, measured, hosted.suite(), new SkillLibrary(dir), mining.settings(true, recordedCaps(agent)),
                                    "oracle rollouts of " + mined.size() + " training examples of task " + task.name() + " (seed " + seed + ")");
                    Map<String, Object> summary = new LinkedHashMap<>();
                    summary.put("task", task.name());
                    summary.put("seed", seed);
                    summary.put("mining", report(result.mining()));
                    summary.put("registered", result.registered());
                    summary.put("before", arm(result.before()));
                    summary.put("after", arm(result.after()));
                    return CommandOutput.summary(spec, summary);
                }
            } catch (Exception e) {
                return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, String.valueOf(e.getMessage()));
            }
        }
    }

    /**
     * {@code train --crystallize}: the run's successful traces mined with the default settings into {@code <run>/skills},
     * pending approval; the report goes to {@code out} as JSON.
     */
    static void crystallizeRun(Path run, String suite, Path dataDir, AgentConfig agent, PrintWriter out) {
        Path traces = run.resolve("traces.jsonl");
        try (BuiltinSuites.Hosted hosted = BuiltinSuites.open(suite, TaskTrainingJob.toolOptions(dataDir))) {
            Crystallizer.Settings defaults = Crystallizer.Settings.defaults();
            Crystallizer.Settings settings = new Crystallizer.Settings(defaults.minLength(), defaults.maxLength(), defaults.minSupport(),
                    defaults.minReward(), false, defaults.replayTimeout(), recordedCaps(agent));
            Crystallizer.Report report = new Crystallizer(settings).crystallize(TraceJson.read(traces).items(), hosted.suite(),
                    new SkillLibrary(run.resolve("skills")), traces.toString());
            out.println(JSON.writeValueAsString(report(report)));
            out.flush();
        } catch (Exception e) {
            throw new IllegalArgumentException("crystallize " + traces + ": " + e.getMessage(), e);
        }
    }

    /** The caps a task job's results go through: the tool executor's, then the agent's. */
    private static List<Integer> recordedCaps(AgentConfig agent) {
        return List.of(ExecutorSettings.defaults().outputCapChars(), agent.toolOutputCap());
    }

    static Map<String, Object> report(Crystallizer.Report report) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("traces", report.traces());
        summary.put("successful", report.successful());
        summary.put("patterns", report.patterns());
        summary.put("accepted", report.accepted().stream().map(SkillsCommand::row).toList());
        summary.put("rejected", report.rejected().stream().map(r -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tools", r.tools());
            row.put("support", r.support());
            row.put("reason", r.reason());
            return row;
        }).toList());
        return summary;
    }

    static Map<String, Object> row(SkillDefinition d) {
        return SkillCard.summary(d);
    }

    private static Map<String, Object> arm(SkillMeasurement.Arm arm) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("examples", arm.examples());
        row.put("solved", arm.solved());
        row.put("success_rate", arm.successRate());
        row.put("success_ci95", arm.successInterval());
        row.put("calls_per_solved", arm.meanCalls());
        row.put("calls_per_solved_ci95", arm.callsInterval());
        return row;
    }
}
