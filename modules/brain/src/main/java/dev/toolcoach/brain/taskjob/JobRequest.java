package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A task training job as a user asks for it: the {@code train} command's options, or the JSON body of
 * {@code POST /jobs} on a coach node. Absent values take the defaults below; {@link #options} checks them.
 *
 * @param task         a registered task (required)
 * @param name         the run's name; an existing run of that name resumes (default {@code <task>-<date>-<time>})
 * @param algorithm    grpo (default), dpo or sft
 * @param mode         async (default) or sync
 * @param steps        learner steps after the warm-up (default: the recipe's)
 * @param warmupTraces oracle traces of the warm-up, 0 for none (default: the recipe's)
 * @param athletes     athlete actors of an embedded run (default: all of a step's rollouts at once)
 * @param seed         seeds the task, the model and training (default 1)
 * @param checkpointEvery steps between checkpoints (default 5)
 * @param recipe       the recipe (model shape, warm-up, training settings): the fields it names over {@link ScratchRecipe#defaults()};
 *                     {@code steps} and {@code warmupTraces} still override its counts
 * @param runsDir      the folder of the runs (default {@code runs}); never from the network (see {@link #confinedTo})
 * @param dataDir      the shared data folder (default {@code ../shared/data}); never from the network
 * @param dataset      a JSON Lines file of the task's examples to train on instead of its training split (default: none);
 *                     bad lines are skipped and counted, a file without a usable example is refused
 * @param toolRetrieval the agent's catalogue beyond its suite and tool retrieval over it (default: none); from the network
 *                      its schema files are relative to the data folder and its model an endpoint URL, never a local folder
 * @param judge        an LLM judge as the training reward (default: the task's reward); from the network an endpoint URL only
 * @param toolSuite    the suite of the cluster's tool nodes that serves the task's tools instead of its built-in one (e.g. an
 *                     MCP server in a tool node's {@code toolcoach.tools.mcp.servers}); its tools must take the task's oracle
 *                     calls (default: the task's own suite)
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record JobRequest(String task, String name, String algorithm, String mode, Integer steps,
                         @JsonProperty("warmup_traces") Integer warmupTraces, Integer athletes, Long seed,
                         @JsonProperty("checkpoint_every") Integer checkpointEvery,
                         @JsonDeserialize(using = ScratchRecipe.OverDefaults.class) ScratchRecipe recipe,
                         @JsonProperty("runs_dir") String runsDir, @JsonProperty("data_dir") String dataDir, String dataset,
                         @JsonProperty("tool_retrieval") ToolChoice toolRetrieval, JudgeChoice judge,
                         @JsonProperty("tool_suite") String toolSuite) {

    /** A request with the task's own suite. */
    public JobRequest(String task, String name, String algorithm, String mode, Integer steps, Integer warmupTraces,
                      Integer athletes, Long seed, Integer checkpointEvery, ScratchRecipe recipe, String runsDir, String dataDir,
                      String dataset, ToolChoice toolRetrieval, JudgeChoice judge) {
        this(task, name, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe, runsDir, dataDir, dataset,
                toolRetrieval, judge, null);
    }

    /** A request with the task's own tools and reward. */
    public JobRequest(String task, String name, String algorithm, String mode, Integer steps, Integer warmupTraces,
                      Integer athletes, Long seed, Integer checkpointEvery, ScratchRecipe recipe, String runsDir, String dataDir,
                      String dataset) {
        this(task, name, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe, runsDir, dataDir, dataset,
                null, null);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RUN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    /** The same request under a fixed name (a submitted job keeps the name it got). */
    public JobRequest withName(String runName) {
        return new JobRequest(task, runName, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe,
                runsDir, dataDir, dataset, toolRetrieval, judge, toolSuite);
    }

    /** The same request with the runs folder it gets when it names none. */
    public JobRequest withRunsDirOr(Path defaultRunsDir) {
        return runsDir != null ? this : new JobRequest(task, name, algorithm, mode, steps, warmupTraces, athletes, seed,
                checkpointEvery, recipe, defaultRunsDir.toString(), dataDir, dataset, toolRetrieval, judge, toolSuite);
    }

    /**
     * A request body from the network ({@code POST /jobs}), read with its nesting limited and confined to the node's
     * folders ({@link #confinedTo}).
     *
     * @throws JsonProcessingException  when the body is not a job request
     * @throws IllegalArgumentException naming the field that points outside the node's folders
     */
    public static JobRequest fromNetwork(String body, Path runsRoot, Path dataRoot) throws JsonProcessingException {
        JobRequest request = UntrustedJson.readValue(JSON, body, JobRequest.class, UntrustedJson.MAX_DEPTH);
        if (request == null) throw new IllegalArgumentException("the body is empty, not a job request");
        return request.confinedTo(runsRoot, dataRoot);
    }

    /**
     * This request as received from the network, confined to the node's folders: it may name its run and a
     * dataset relative to {@code dataRoot}, never a folder of its own (it could create or overwrite folders
     * anywhere, load any {@code init/} as its model, or read any file as its dataset).
     *
     * @return the request with the node's runs and data folders and the dataset resolved under {@code dataRoot}
     * @throws IllegalArgumentException naming the field that points outside
     */
    public JobRequest confinedTo(Path runsRoot, Path dataRoot) {
        if (runsDir != null) throw new IllegalArgumentException("runs_dir cannot be set in a request: the node's toolcoach.jobs.runs-dir holds every run");
        if (dataDir != null) throw new IllegalArgumentException("data_dir cannot be set in a request: the node reads data from its toolcoach.jobs.data-dir only");
        if (judge != null && judge.endpoint().url() == null) {
            throw new IllegalArgumentException("judge.endpoint must name a url: a request cannot load a local model folder");
        }
        ToolChoice tools = toolRetrieval;
        if (tools != null) {
            if (tools.model() != null && tools.model().url() == null) {
                throw new IllegalArgumentException("tool_retrieval.model must name a url: a request cannot load a local model folder");
            }
            tools = new ToolChoice(tools.mode(), tools.k(), tools.distractorSuites(),
                    tools.distractorSchemas().stream().map(f -> insideDataRoot("tool_retrieval.distractor_schemas", f, dataRoot).toString()).toList(),
                    tools.model());
        }
        return new JobRequest(task, name, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe,
                runsRoot.toString(), dataRoot.toString(), dataset == null ? null : insideDataRoot("dataset", dataset, dataRoot).toString(),
                tools, judge, toolSuite);
    }

    private static Path insideDataRoot(String field, String dataset, Path dataRoot) {
        Path relative;
        try {
            relative = Path.of(dataset);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(field + " is not a valid path");
        }
        if (relative.isAbsolute()) throw new IllegalArgumentException(field + " must be a path relative to the data folder, not an absolute path");
        Path root = dataRoot.toAbsolutePath().normalize();
        Path file = root.resolve(relative).normalize();
        boolean inside = file.startsWith(root) && !file.equals(root);
        try {
            // a symbolic link inside the data folder may still point out of it
            if (inside && Files.exists(file)) inside = file.toRealPath().startsWith(root.toRealPath());
        } catch (IOException e) {
            inside = false;
        }
        if (!inside) throw new IllegalArgumentException(field + " must name a file inside the data folder (no .. or links out of it)");
        return file;
    }

    /** The run's name: the given one, or one made from the task and the time. */
    public String runName() {
        return name != null && !name.isBlank() ? name
                : task + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }

    /**
     * The job's options for the run named {@code runName}.
     *
     * @throws IllegalArgumentException naming a missing or invalid value
     */
    public TaskTrainingJob.Options options(String runName) {
        if (task == null || task.isBlank()) throw new IllegalArgumentException("no task given");
        if (!RUN_NAME.matcher(runName).matches()) {
            throw new IllegalArgumentException("run name must be a plain folder name (letters, digits, . _ -; at most 100)");
        }
        String m = mode == null ? "async" : mode.trim().toLowerCase(Locale.ROOT);
        if (!m.equals("async") && !m.equals("sync")) throw new IllegalArgumentException("unknown mode '" + mode + "'; valid: async, sync");
        ScratchRecipe chosen = recipe != null ? recipe : ScratchRecipe.defaults();
        if (steps != null) {
            if (steps < 1) throw new IllegalArgumentException("steps must be at least 1, was " + steps);
            chosen = chosen.withGrpoSteps(steps);
        }
        if (warmupTraces != null) {
            if (warmupTraces < 0) throw new IllegalArgumentException("warm-up traces must be 0 or more, was " + warmupTraces);
            chosen = chosen.withWarmupTraces(warmupTraces);
        }
        int actors = athletes != null ? athletes : chosen.grpo().groupSize() * chosen.grpo().groupsPerStep();
        if (actors < 1) throw new IllegalArgumentException("athletes must be at least 1, was " + actors);
        int every = checkpointEvery != null ? checkpointEvery : 5;
        if (every < 1) throw new IllegalArgumentException("checkpoint interval must be at least 1 step, was " + every);
        if (dataset != null && dataset.isBlank()) throw new IllegalArgumentException("dataset must name a file");
        return new TaskTrainingJob.Options(task.trim(), Path.of(dataDir != null ? dataDir : "../shared/data"),
                Path.of(runsDir != null ? runsDir : "runs").resolve(runName),
                algorithm == null ? "grpo" : algorithm.trim().toLowerCase(Locale.ROOT), m.equals("sync"), chosen, actors,
                seed != null ? seed : 1L, every, dataset != null ? Path.of(dataset) : null, TrainingConfig.Limits.defaults(),
                null, null, toolRetrieval, judge, toolSuite == null ? null : toolSuite.trim());
    }
}
