package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * A task training job as a user asks for it: the {@code train} command's options, or the JSON body of
 * {@code POST /jobs} on a coach node, as text the way it arrived (and as {@code job.json} keeps it for a resume).
 * {@link #options} reads it once into the job's typed {@link TaskTrainingJob.Options}; absent values take the
 * defaults documented there (or below, for what only a request has).
 *
 * @param task         a registered task (required unless a dataset is the task)
 * @param name         the run's name; an existing run of that name resumes (default {@code <task>-<date>-<time>})
 * @param algorithm    grpo, dpo or sft, any case ({@link Algorithm#parse})
 * @param mode         async or sync, any case ({@link TrainingMode#parse})
 * @param steps        learner steps after the warm-up (default: the recipe's)
 * @param warmupTraces oracle traces of the warm-up, 0 for none (default: the recipe's)
 * @param athletes     athlete actors of an embedded run
 * @param seed         seeds the task, the model and training
 * @param checkpointEvery steps between checkpoints
 * @param recipe       the recipe (model shape, warm-up, training settings): the fields it names over {@link ScratchRecipe#defaults()};
 *                     {@code steps} and {@code warmupTraces} still override its counts
 * @param runsDir      the folder of the runs (default {@code runs}); never from the network (see {@link #confinedTo})
 * @param dataDir      the shared data folder; never from the network
 * @param dataset      a file of examples in one of {@link JobDataset}'s layouts: with a task, ToolCoach JSON Lines to train
 *                     on instead of its training split; without one, the task itself. Bad records are skipped and
 *                     counted, a file without a usable example is refused. From the network relative to the data folder
 * @param toolRetrieval the agent's catalogue beyond its suite and tool retrieval over it; from the network
 *                      its schema files are relative to the data folder and its model an endpoint URL, never a local folder
 * @param judge        an LLM judge as the training reward; from the network an endpoint URL only
 * @param model        a Hugging Face model folder of a supported family to train a LoRA adapter over instead of a model built
 *                     from scratch; with one, the warm-up is off unless {@code warmup_traces} asks for it. From the network
 *                     a folder relative to the node's {@code toolcoach.jobs.models-dir}
 * @param toolSuite    the suite of the cluster's tool nodes that serves the task's tools instead of its built-in one (e.g. an
 *                     MCP server in a tool node's {@code toolcoach.tools.mcp.servers}); its tools must take the task's oracle
 *                     calls
 * @param reward       the reward trained and evaluated on, by name ({@link RewardChoice}; default the task's own); a
 *                     reward server's URL must be under one of the node's {@code toolcoach.jobs.endpoints}
 * @param adapter      a PEFT adapter over {@code model} to continue training; from the network a folder relative to the
 *                     node's {@code toolcoach.jobs.models-dir}
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record JobRequest(String task, String name, String algorithm, String mode, Integer steps,
                         @JsonProperty("warmup_traces") Integer warmupTraces, Integer athletes, Long seed,
                         @JsonProperty("checkpoint_every") Integer checkpointEvery,
                         @JsonDeserialize(using = ScratchRecipe.OverDefaults.class) ScratchRecipe recipe,
                         @JsonProperty("runs_dir") String runsDir, @JsonProperty("data_dir") String dataDir, String dataset,
                         @JsonProperty("tool_retrieval") ToolChoice toolRetrieval, JudgeChoice judge,
                         @JsonProperty("tool_suite") String toolSuite, String model, String reward, String adapter) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RUN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    /** A builder with no field set (an empty body). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this request's fields. */
    public Builder toBuilder() {
        return new Builder().task(task).name(name).algorithm(algorithm).mode(mode).steps(steps).warmupTraces(warmupTraces)
                .athletes(athletes).seed(seed).checkpointEvery(checkpointEvery).recipe(recipe).runsDir(runsDir).dataDir(dataDir)
                .dataset(dataset).toolRetrieval(toolRetrieval).judge(judge).toolSuite(toolSuite).model(model).reward(reward).adapter(adapter);
    }

    /** One setter per field; a field not set is absent, as in a body without it. */
    public static final class Builder {
        private String task;
        private String name;
        private String algorithm;
        private String mode;
        private Integer steps;
        private Integer warmupTraces;
        private Integer athletes;
        private Long seed;
        private Integer checkpointEvery;
        private ScratchRecipe recipe;
        private String runsDir;
        private String dataDir;
        private String dataset;
        private ToolChoice toolRetrieval;
        private JudgeChoice judge;
        private String toolSuite;
        private String model;
        private String reward;
        private String adapter;

        private Builder() {
        }

        public Builder task(String t) {
            this.task = t;
            return this;
        }

        public Builder name(String n) {
            this.name = n;
            return this;
        }

        public Builder algorithm(String a) {
            this.algorithm = a;
            return this;
        }

        public Builder mode(String m) {
            this.mode = m;
            return this;
        }

        public Builder steps(Integer n) {
            this.steps = n;
            return this;
        }

        public Builder warmupTraces(Integer n) {
            this.warmupTraces = n;
            return this;
        }

        public Builder athletes(Integer n) {
            this.athletes = n;
            return this;
        }

        public Builder seed(Long s) {
            this.seed = s;
            return this;
        }

        public Builder checkpointEvery(Integer n) {
            this.checkpointEvery = n;
            return this;
        }

        public Builder recipe(ScratchRecipe r) {
            this.recipe = r;
            return this;
        }

        public Builder runsDir(String dir) {
            this.runsDir = dir;
            return this;
        }

        public Builder dataDir(String dir) {
            this.dataDir = dir;
            return this;
        }

        public Builder dataset(String file) {
            this.dataset = file;
            return this;
        }

        public Builder toolRetrieval(ToolChoice choice) {
            this.toolRetrieval = choice;
            return this;
        }

        public Builder judge(JudgeChoice choice) {
            this.judge = choice;
            return this;
        }

        public Builder toolSuite(String suite) {
            this.toolSuite = suite;
            return this;
        }

        public Builder model(String folder) {
            this.model = folder;
            return this;
        }

        public Builder reward(String name) {
            this.reward = name;
            return this;
        }

        public Builder adapter(String folder) {
            this.adapter = folder;
            return this;
        }

        public JobRequest build() {
            return new JobRequest(task, name, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe, runsDir,
                    dataDir, dataset, toolRetrieval, judge, toolSuite, model, reward, adapter);
        }
    }

    /**
     * A request body from the network ({@code POST /jobs}), read with its nesting limited and confined to the node's
     * folders ({@link #confinedTo}).
     *
     * @throws JsonProcessingException  when the body is not a job request
     * @throws IllegalArgumentException naming the field that points outside the node's folders
     */
    public static JobRequest fromNetwork(String body, Path runsRoot, Path dataRoot, Path modelsRoot) throws JsonProcessingException {
        JobRequest request = UntrustedJson.readValue(JSON, body, JobRequest.class, UntrustedJson.MAX_DEPTH);
        if (request == null) throw new IllegalArgumentException("the body is empty, not a job request");
        return request.confinedTo(runsRoot, dataRoot, modelsRoot);
    }

    /**
     * This request as received from the network, confined to the node's folders: it may name its run, a dataset
     * relative to {@code dataRoot} and a model folder relative to {@code modelsRoot}, never a folder of its own (it
     * could create or overwrite folders anywhere, load any folder as its model, or read any file as its dataset).
     *
     * @return the request with the node's runs and data folders, the dataset resolved under {@code dataRoot} and the
     *         model under {@code modelsRoot}
     * @throws IllegalArgumentException naming the field that points outside
     */
    public JobRequest confinedTo(Path runsRoot, Path dataRoot, Path modelsRoot) {
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
                    tools.distractorSchemas().stream().map(f -> inside("tool_retrieval.distractor_schemas", f, dataRoot, "a file", "data folder").toString()).toList(),
                    tools.model());
        }
        return toBuilder().runsDir(runsRoot.toString()).dataDir(dataRoot.toString())
                .dataset(dataset == null ? null : inside("dataset", dataset, dataRoot, "a file", "data folder").toString())
                .model(model == null ? null : inside("model", model, modelsRoot, "a folder", "models folder").toString())
                .adapter(adapter == null ? null : inside("adapter", adapter, modelsRoot, "a folder", "models folder").toString())
                .toolRetrieval(tools).build();
    }

    private static Path inside(String field, String path, Path root, String what, String rootName) {
        Path relative;
        try {
            relative = Path.of(path);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(field + " is not a valid path");
        }
        if (relative.isAbsolute()) throw new IllegalArgumentException(field + " must be a path relative to the " + rootName + ", not an absolute path");
        Path top = root.toAbsolutePath().normalize();
        Path file = top.resolve(relative).normalize();
        boolean inside = file.startsWith(top) && !file.equals(top);
        try {
            // a symbolic link inside the folder may still point out of it
            if (inside && Files.exists(file)) inside = file.toRealPath().startsWith(top.toRealPath());
        } catch (IOException e) {
            inside = false;
        }
        if (!inside) throw new IllegalArgumentException(field + " must name " + what + " inside the " + rootName + " (no .. or links out of it)");
        return file;
    }

    /** The run's name: the given one, or one made from the task (else the dataset file's name) and the time. */
    public String runName() {
        String what = task != null && !task.isBlank() ? task.trim()
                : dataset != null ? JobDataset.taskName(Path.of(dataset)) : "job";
        return name != null && !name.isBlank() ? name
                : what + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }

    /**
     * The job's options for the run named {@code runName}: the one place a request's text becomes typed values.
     *
     * @throws IllegalArgumentException naming a missing or invalid value
     */
    public TaskTrainingJob.Options options(String runName) {
        if ((task == null || task.isBlank()) && dataset == null) {
            throw new IllegalArgumentException("no task given: name a registered task or a dataset");
        }
        if (!RUN_NAME.matcher(runName).matches()) {
            throw new IllegalArgumentException("run name must be a plain folder name (letters, digits, . _ -; at most 100)");
        }
        ScratchRecipe chosen = recipe != null ? recipe : ScratchRecipe.defaults();
        if (steps != null) {
            if (steps < 0) throw new IllegalArgumentException("steps must be 0 (the warm-up alone) or more, was " + steps);
            chosen = chosen.withGrpoSteps(steps);
        }
        if (warmupTraces != null) {
            if (warmupTraces < 0) throw new IllegalArgumentException("warm-up traces must be 0 or more, was " + warmupTraces);
            chosen = chosen.withWarmupTraces(warmupTraces);
        } else if (model != null) {
            chosen = chosen.withWarmupTraces(0); // a user's model is trained as given unless a warm-up is asked for
        }
        if (model != null && model.isBlank()) throw new IllegalArgumentException("model must name a folder");
        if (dataset != null && dataset.isBlank()) throw new IllegalArgumentException("dataset must name a file");
        if (reward != null && reward.isBlank()) throw new IllegalArgumentException("reward must name a reward");
        TaskTrainingJob.Options.Builder options = TaskTrainingJob.Options.builder().task(task == null || task.isBlank() ? null : task.trim()).recipe(chosen)
                .runDir(Path.of(runsDir != null ? runsDir : "runs").resolve(runName)).tools(toolRetrieval).judge(judge);
        if (dataDir != null) options.dataDir(Path.of(dataDir));
        if (algorithm != null) options.algorithm(Algorithm.parse(algorithm));
        if (mode != null) options.mode(TrainingMode.parse(mode));
        if (athletes != null) options.athletes(athletes);
        if (seed != null) options.seed(seed);
        if (checkpointEvery != null) options.checkpointEvery(checkpointEvery);
        if (dataset != null) options.dataset(Path.of(dataset));
        if (toolSuite != null) options.toolSuite(toolSuite.trim());
        if (model != null) options.model(Path.of(model));
        if (reward != null) options.reward(new RewardChoice(reward));
        if (adapter != null) {
            if (adapter.isBlank()) throw new IllegalArgumentException("adapter must name a folder");
            options.adapter(Path.of(adapter));
        }
        return options.build();
    }
}
