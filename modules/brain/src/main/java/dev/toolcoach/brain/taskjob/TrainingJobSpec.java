package dev.toolcoach.brain.taskjob;

import dev.toolcoach.model.ComputeDevice;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.ToolUseReward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A training job, whole: the one place its settings live, each of its type and checked once, with one set of defaults.
 * The {@code train} command's flags, a {@code --spec} file, the body of {@code POST /jobs} (and {@code job.json}, which
 * keeps it for a resume) all become one of these, which the job hands down unchanged; its training settings become the
 * Brain's {@link TrainingConfig} in {@link #trainingConfig()} alone.
 *
 * <p>Its JSON form ({@link #json()}, read by {@link #fromJson}) names: {@code task}, {@code name}, {@code algorithm},
 * {@code mode}, {@code steps}, {@code warmup_traces}, {@code athletes}, {@code seed}, {@code checkpoint_every},
 * {@code recipe}, {@code runs_dir}, {@code data_dir}, {@code dataset}, {@code test_dataset}, {@code tool_retrieval}, {@code judge},
 * {@code tool_suite}, {@code model}, {@code reward}, {@code adapter}. What a node or a command adds ({@code limits},
 * {@code endpoints}, {@code device}) and what only a command may name ({@code adapt}, {@code tool_reward}, {@code tools_config}) is
 * not in it.
 *
 * @param task      a registered task name (null: the dataset is the task; one of the two is required)
 * @param runDir    the run folder, {@code <runs>/<name>}; an existing run there resumes (default name
 *                  {@code <task>-<date>-<time>})
 * @param dataDir   the shared data folder, for tasks built from files, e.g. email (default {@code ../shared/data})
 * @param algorithm what trains after the warm-up (default GRPO)
 * @param mode      asynchronous, synchronous (roll out a batch, train, broadcast), or synchronous with a turn barrier
 *                  (default asynchronous)
 * @param recipe    model shape, warm-up and training settings (default {@link ScratchRecipe#defaults()}, whose training
 *                  settings are {@link TrainingConfig#defaults()}'s)
 * @param athletes  athlete actors of the embedded node, ignored on a cluster: athlete nodes bring their own
 *                  (default all of a step's rollouts at once: the recipe's group size × groups per step)
 * @param seed      seeds the task, the split, the model and training (default 1)
 * @param checkpointEvery steps between checkpoints (default {@link TrainingConfig#defaults()}'s)
 * @param dataset   a file of examples ({@link JobDataset}'s layouts): with a task, ToolCoach JSON Lines the job trains on
 *                  instead of the task's training split; without one, the task itself, its test split held out as a
 *                  task's is (default none: null)
 * @param limits    when the training run is ended (timeouts) and how often a rollout may go out again (default
 *                  {@link TrainingConfig.Limits#defaults()}; a node's from its config)
 * @param adapt     TILE's ADAPT settings file (equivalent tools), turning ADAPT on for training and evaluation
 *                  (default off: null)
 * @param toolReward TILE's composite reward weights to train on (outcome: the task reward) instead of the task reward
 *                  shaped by oracle calls (default null: the shaped task reward)
 * @param tools     the agent's catalogue beyond its suite and tool retrieval over it (default {@link ToolChoice#none()})
 * @param judge     an LLM judge as the training reward (default null: the task's reward)
 * @param toolSuite the cluster's suite (e.g. an MCP server a tool node hosts) that serves the task's tools instead of its
 *                  built-in suite; its tools must take the task's oracle calls. On a cluster, or embedded when
 *                  {@code toolsConfig} defines it (default null: the task's built-in suite)
 * @param endpoints the endpoints the judge, the tool selector and a reward server may be at, each with its key (default
 *                  none: none may be a URL)
 * @param model     a Hugging Face model folder of a supported family to train a LoRA adapter over, instead of a
 *                  task-sized model built from scratch (default null: from scratch); with one, the warm-up is off unless
 *                  {@code warmup_traces} asks for it. Absolute; checked before anything runs. A folder with its own chat
 *                  template acts in its family's native tool-call format, one without (a model ToolCoach built, a bare
 *                  checkpoint) in the recipe's
 * @param reward    the reward trained and evaluated on (default {@link RewardChoice#task()}: the task's own, shaped by
 *                  the oracle's calls in training)
 * @param adapter   a PEFT adapter over {@code model} that training continues (its LoRA settings replace the recipe's)
 *                  and the first evaluation scores; absolute (default null: a fresh LoRA)
 * @param toolsConfig a HOCON file whose {@code toolcoach.tools} section (as a tool node's: {@code classes},
 *                  {@code mcp.servers}) defines {@code toolSuite} for an embedded job, which then hosts it in this
 *                  process. From the command line only: a request cannot make a node start processes (default null)
 * @param testDataset a file of test examples (a layout {@link JobDataset} reads) for a dataset that is the task: they are
 *                  its test split, the dataset's examples all trained on (default null: a fifth of the dataset held out)
 * @param device    where the job's models compute in this process (the command's {@code --device}/{@code --precision},
 *                  a coach node's own config; default {@link ComputeDevice#cpu()}); a cluster's athlete nodes compute
 *                  where their config says
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record TrainingJobSpec(String task, Path runDir, Path dataDir, Algorithm algorithm, TrainingMode mode, ScratchRecipe recipe,
                              int athletes, long seed, int checkpointEvery, Path dataset, TrainingConfig.Limits limits, Path adapt,
                              ToolUseReward.Weights toolReward, ToolChoice tools, JudgeChoice judge, String toolSuite,
                              OutboundEndpoints endpoints, Path model, RewardChoice reward, Path adapter, Path toolsConfig,
                              Path testDataset, ComputeDevice device) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RUN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    public TrainingJobSpec {
        if (task == null && dataset == null) {
            throw new IllegalArgumentException("no task given: name a registered task (task, --task) or a dataset (dataset, --dataset)");
        }
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(runDir, "runDir");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(recipe, "recipe");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(device, "device");
        if (athletes < 1) throw new IllegalArgumentException("athletes must be at least 1, was " + athletes);
        if (checkpointEvery < 1) throw new IllegalArgumentException("checkpoint interval must be at least 1 step, was " + checkpointEvery);
        tools = tools == null ? ToolChoice.none() : tools;
        if (toolSuite != null && toolSuite.isBlank()) throw new IllegalArgumentException("tool_suite must name a suite");
        endpoints = endpoints == null ? OutboundEndpoints.none() : endpoints;
        model = model == null ? null : model.toAbsolutePath().normalize();
        reward = reward == null ? RewardChoice.task() : reward;
        adapter = adapter == null ? null : adapter.toAbsolutePath().normalize();
        if (adapter != null && model == null) {
            throw new IllegalArgumentException("an adapter continues over the model it was trained on: name that model too");
        }
        if (toolsConfig != null && toolSuite == null) {
            throw new IllegalArgumentException("a tools config hosts a tool_suite the job names: name it (--tool-suite NAME)");
        }
        if (adapter != null && recipe.warmup().traces() > 0) {
            throw new IllegalArgumentException("an adapter continues over the model as given: no warm-up (warm-up traces 0)");
        }
        if (testDataset != null && (dataset == null || task != null)) {
            throw new IllegalArgumentException("a test dataset is the test split of a dataset that is the task: name the dataset "
                    + "and no task (a registered task's test split is its own)");
        }
        if (!reward.isTask() && (judge != null || toolReward != null)) {
            throw new IllegalArgumentException("reward " + reward.name() + " and " + (judge != null ? "a judge" : "tool_reward")
                    + " both name what training optimises: choose one");
        }
    }

    /** What status and progress lines call the job's task: the registered task, else the dataset file's name. */
    public String taskLabel() {
        return task != null ? task : dataset.getFileName().toString();
    }

    /** The run's name: its folder's. */
    public String name() {
        return runDir.getFileName().toString();
    }

    /** A builder at the defaults; a task or a dataset must be set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this spec. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.task = task;
        b.runDir = runDir;
        b.dataDir = dataDir;
        b.algorithm = algorithm;
        b.mode = mode;
        b.recipe = recipe;
        if (model != null) b.warmupTraces = recipe.warmup().traces(); // decided for this model: kept if it is built again
        b.athletes = athletes;
        b.seed = seed;
        b.checkpointEvery = checkpointEvery;
        b.dataset = dataset;
        b.limits = limits;
        b.adapt = adapt;
        b.toolReward = toolReward;
        b.tools = tools;
        b.judge = judge;
        b.toolSuite = toolSuite;
        b.endpoints = endpoints;
        b.model = model;
        b.reward = reward;
        b.adapter = adapter;
        b.toolsConfig = toolsConfig;
        b.testDataset = testDataset;
        b.device = device;
        return b;
    }

    /** One setter per setting; the defaults are those documented on {@link TrainingJobSpec}. */
    public static final class Builder {
        private String task;
        private Path runDir;
        private Path runsDir = Path.of("runs");
        private String name;
        private Path dataDir = Path.of("../shared/data");
        private Algorithm algorithm = Algorithm.GRPO;
        private TrainingMode mode = TrainingMode.ASYNC;
        private ScratchRecipe recipe = ScratchRecipe.defaults();
        private Integer steps;
        private Integer warmupTraces;
        /** Null: the recipe's rollouts of one step. */
        private Integer athletes;
        private long seed = 1;
        private int checkpointEvery = TrainingConfig.defaults().checkpointEvery();
        private Path dataset;
        private TrainingConfig.Limits limits = TrainingConfig.Limits.defaults();
        private Path adapt;
        private ToolUseReward.Weights toolReward;
        private ToolChoice tools = ToolChoice.none();
        private JudgeChoice judge;
        private String toolSuite;
        private OutboundEndpoints endpoints = OutboundEndpoints.none();
        private Path model;
        private RewardChoice reward = RewardChoice.task();
        private Path adapter;
        private Path toolsConfig;
        private Path testDataset;
        private ComputeDevice device = ComputeDevice.cpu();

        private Builder() {
        }

        public Builder task(String name) {
            this.task = name;
            return this;
        }

        /** The run folder itself; else {@code <runsDir>/<name>}. */
        public Builder runDir(Path dir) {
            this.runDir = dir;
            return this;
        }

        /** The folder of the runs (default {@code runs}), when no run folder is set. */
        public Builder runsDir(Path dir) {
            this.runsDir = Objects.requireNonNull(dir, "runsDir");
            return this;
        }

        /** The run's name (a plain folder name), when no run folder is set; null: {@code <task>-<date>-<time>}. */
        public Builder name(String runName) {
            this.name = runName;
            return this;
        }

        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        public Builder algorithm(Algorithm a) {
            this.algorithm = a;
            return this;
        }

        public Builder mode(TrainingMode m) {
            this.mode = m;
            return this;
        }

        public Builder recipe(ScratchRecipe r) {
            this.recipe = r;
            return this;
        }

        /** Learner steps after the warm-up, over the recipe's; null: the recipe's. */
        public Builder steps(Integer count) {
            this.steps = count;
            return this;
        }

        /** Oracle traces of the warm-up, over the recipe's; null: the recipe's, or none over a user's model. */
        public Builder warmupTraces(Integer count) {
            this.warmupTraces = count;
            return this;
        }

        public Builder athletes(Integer count) {
            this.athletes = count;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder checkpointEvery(int count) {
            this.checkpointEvery = count;
            return this;
        }

        public Builder dataset(Path file) {
            this.dataset = file;
            return this;
        }

        public Builder limits(TrainingConfig.Limits l) {
            this.limits = l;
            return this;
        }

        public Builder adapt(Path settings) {
            this.adapt = settings;
            return this;
        }

        public Builder toolReward(ToolUseReward.Weights weights) {
            this.toolReward = weights;
            return this;
        }

        public Builder tools(ToolChoice choice) {
            this.tools = choice;
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

        public Builder endpoints(OutboundEndpoints allowed) {
            this.endpoints = allowed;
            return this;
        }

        public Builder model(Path folder) {
            this.model = folder;
            return this;
        }

        public Builder reward(RewardChoice choice) {
            this.reward = choice;
            return this;
        }

        public Builder adapter(Path folder) {
            this.adapter = folder;
            return this;
        }

        public Builder toolsConfig(Path file) {
            this.toolsConfig = file;
            return this;
        }

        public Builder testDataset(Path file) {
            this.testDataset = file;
            return this;
        }

        public Builder device(ComputeDevice d) {
            this.device = d;
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming the setting that is out of range or missing */
        public TrainingJobSpec build() {
            Objects.requireNonNull(recipe, "recipe");
            ScratchRecipe chosen = recipe;
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
            int actors;
            try {
                actors = athletes != null ? athletes : Math.multiplyExact(chosen.grpo().groupSize(), chosen.grpo().groupsPerStep());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("groupSize x groupsPerStep is too large: " + chosen.grpo().groupSize() + " x "
                        + chosen.grpo().groupsPerStep());
            }
            String trimmedTask = task == null || task.isBlank() ? null : task.trim();
            Path folder = runDir != null ? runDir : runsDir.resolve(runName(trimmedTask));
            return new TrainingJobSpec(trimmedTask, folder, dataDir, algorithm, mode, chosen, actors, seed, checkpointEvery,
                    dataset, limits, adapt, toolReward, tools, judge, toolSuite == null ? null : toolSuite.trim(), endpoints,
                    model, reward, adapter, toolsConfig, testDataset, device);
        }

        /** The name given, checked, or one made from the task (else the dataset file's name) and the time. */
        private String runName(String trimmedTask) {
            if (name != null && !name.isBlank()) {
                if (!RUN_NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("run name must be a plain folder name (letters, digits, . _ -; at most 100)");
                }
                return name;
            }
            String what = trimmedTask != null ? trimmedTask : dataset != null ? JobDataset.taskName(dataset) : "job";
            return what + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        }
    }

    /**
     * The JSON form, where a spec file, a request body and {@code job.json} enter: each value read into its type here,
     * once. Absent values take the defaults; {@code steps} and {@code warmup_traces} override the recipe's counts.
     */
    @JsonCreator
    static TrainingJobSpec fromJson(@JsonProperty("task") String task, @JsonProperty("name") String name,
                                    @JsonProperty("algorithm") String algorithm, @JsonProperty("mode") String mode,
                                    @JsonProperty("steps") Integer steps, @JsonProperty("warmup_traces") Integer warmupTraces,
                                    @JsonProperty("athletes") Integer athletes, @JsonProperty("seed") Long seed,
                                    @JsonProperty("checkpoint_every") Integer checkpointEvery,
                                    @JsonProperty("recipe") @JsonDeserialize(using = ScratchRecipe.OverDefaults.class) ScratchRecipe recipe,
                                    @JsonProperty("runs_dir") String runsDir, @JsonProperty("data_dir") String dataDir,
                                    @JsonProperty("dataset") String dataset, @JsonProperty("tool_retrieval") ToolChoice toolRetrieval,
                                    @JsonProperty("judge") JudgeChoice judge, @JsonProperty("tool_suite") String toolSuite,
                                    @JsonProperty("model") String model, @JsonProperty("reward") String reward,
                                    @JsonProperty("adapter") String adapter, @JsonProperty("test_dataset") String testDataset) {
        Builder spec = builder().task(task).name(name).steps(steps).warmupTraces(warmupTraces).athletes(athletes).tools(toolRetrieval)
                .judge(judge).toolSuite(toolSuite);
        if (algorithm != null) spec.algorithm(Algorithm.parse(algorithm));
        if (mode != null) spec.mode(TrainingMode.parse(mode));
        if (seed != null) spec.seed(seed);
        if (checkpointEvery != null) spec.checkpointEvery(checkpointEvery);
        if (recipe != null) spec.recipe(recipe);
        if (runsDir != null) spec.runsDir(path("runs_dir", runsDir, "a folder"));
        if (dataDir != null) spec.dataDir(path("data_dir", dataDir, "a folder"));
        if (dataset != null) spec.dataset(path("dataset", dataset, "a file"));
        if (testDataset != null) spec.testDataset(path("test_dataset", testDataset, "a file"));
        if (model != null) spec.model(path("model", model, "a folder"));
        if (adapter != null) spec.adapter(path("adapter", adapter, "a folder"));
        if (reward != null) {
            if (reward.isBlank()) throw new IllegalArgumentException("reward must name a reward");
            spec.reward(new RewardChoice(reward));
        }
        return spec.build();
    }

    private static Path path(String field, String value, String what) {
        if (value.isBlank()) throw new IllegalArgumentException(field + " must name " + what);
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(field + " is not a valid path");
        }
    }

    /** The JSON form {@link #fromJson} reads: what a resume needs to run the same job again. */
    @JsonValue
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        if (task != null) json.put("task", task);
        json.put("name", name());
        json.put("algorithm", algorithm.lowerName());
        json.put("mode", mode.label());
        json.put("steps", recipe.grpo().steps());
        json.put("warmup_traces", recipe.warmup().traces());
        json.put("athletes", athletes);
        json.put("seed", seed);
        json.put("checkpoint_every", checkpointEvery);
        json.put("recipe", recipe);
        json.put("runs_dir", runDir.toAbsolutePath().normalize().getParent().toString());
        json.put("data_dir", dataDir.toString());
        if (dataset != null) json.put("dataset", dataset.toString());
        if (testDataset != null) json.put("test_dataset", testDataset.toString());
        if (!tools.equals(ToolChoice.none())) json.put("tool_retrieval", tools);
        if (judge != null) json.put("judge", judge);
        if (toolSuite != null) json.put("tool_suite", toolSuite);
        if (model != null) json.put("model", model.toString());
        if (!reward.isTask()) json.put("reward", reward.name());
        if (adapter != null) json.put("adapter", adapter.toString());
        return json;
    }

    /** A spec file ({@code train --spec}): the JSON form, its paths as the user wrote them. */
    public static TrainingJobSpec read(Path file) {
        try {
            return fromTree(UntrustedJson.readTree(JSON, Files.readString(file), UntrustedJson.MAX_DEPTH));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot read the job spec " + file + ": " + UntrustedJson.reason(e), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the job spec " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("job spec " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A request body from the network ({@code POST /jobs}), read with its nesting limited and confined to the node's
     * folders: it may name its run, a dataset relative to {@code dataRoot} and a model folder relative to
     * {@code modelsRoot}, never a folder of its own (it could create or overwrite folders anywhere, load any folder as
     * its model, or read any file as its dataset).
     *
     * @throws JsonProcessingException  when the body is not a job request
     * @throws IllegalArgumentException naming the field that is invalid or points outside the node's folders
     */
    public static TrainingJobSpec fromNetwork(String body, Path runsRoot, Path dataRoot, Path modelsRoot) throws JsonProcessingException {
        JsonNode tree = UntrustedJson.readTree(JSON, body, UntrustedJson.MAX_DEPTH);
        if (tree == null || tree.isMissingNode() || tree.isNull()) throw new IllegalArgumentException("the body is empty, not a job request");
        if (tree.has("runs_dir")) throw new IllegalArgumentException("runs_dir cannot be set in a request: the node's toolcoach.jobs.runs-dir holds every run");
        if (tree.has("data_dir")) throw new IllegalArgumentException("data_dir cannot be set in a request: the node reads data from its toolcoach.jobs.data-dir only");
        TrainingJobSpec spec = fromTree(tree);
        if (spec.judge != null && spec.judge.endpoint().url() == null) {
            throw new IllegalArgumentException("judge.endpoint must name a url: a request cannot load a local model folder");
        }
        ToolChoice tools = spec.tools;
        if (tools.model() != null && tools.model().url() == null) {
            throw new IllegalArgumentException("tool_retrieval.model must name a url: a request cannot load a local model folder");
        }
        tools = new ToolChoice(tools.mode(), tools.k(), tools.distractorSuites(),
                tools.distractorSchemas().stream().map(f -> inside("tool_retrieval.distractor_schemas", f, dataRoot, "a file", "data folder").toString()).toList(),
                tools.model());
        // the node's model folder was made absolute against this process's folder: the request's relative path again
        String model = tree.path("model").asText(null);
        String adapter = tree.path("adapter").asText(null);
        return spec.toBuilder().runDir(runsRoot.resolve(spec.name())).dataDir(dataRoot)
                .dataset(spec.dataset == null ? null : inside("dataset", spec.dataset.toString(), dataRoot, "a file", "data folder"))
                .testDataset(spec.testDataset == null ? null
                        : inside("test_dataset", spec.testDataset.toString(), dataRoot, "a file", "data folder"))
                .model(model == null ? null : inside("model", model, modelsRoot, "a folder", "models folder"))
                .adapter(adapter == null ? null : inside("adapter", adapter, modelsRoot, "a folder", "models folder"))
                .tools(tools).build();
    }

    /** The JSON form read; a value our types refuse is that refusal, one line naming it. */
    private static TrainingJobSpec fromTree(JsonNode tree) throws JsonProcessingException {
        if (!tree.isObject()) throw MismatchedInputException.from(null, TrainingJobSpec.class, "a job spec must be a JSON object");
        try {
            return JSON.treeToValue(tree, TrainingJobSpec.class);
        } catch (ValueInstantiationException e) {
            if (e.getCause() instanceof IllegalArgumentException refused && e.getPath().isEmpty()) throw refused;
            throw e;
        }
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

    /**
     * The reward training optimises: the one named, else the task reward (of rollouts acting in {@code format}) with
     * credit for oracle calls, or TILE's composite.
     */
    Reward trainingReward(Task forTask, ActionFormat format) {
        if (!reward.isTask()) return reward.training(forTask, format, endpoints);
        return Reward.perTrace(forTask.name(), toolReward == null ? new CallShapedReward(forTask.reward(format), recipe.grpo().callWeight())
                : new ToolUseReward(toolReward, forTask.reward(format)));
    }

    /** The reward evaluations count accuracy by: the one named, else the task's own. */
    public TraceReward evaluationReward(Task forTask, ActionFormat format) {
        return reward.evaluation(forTask, format, endpoints);
    }

    /** The Brain's settings, the only place the spec becomes them; the mode sets the policy lag. */
    public TrainingConfig trainingConfig() {
        ScratchRecipe.Grpo g = recipe.grpo();
        ScratchRecipe.Rollouts r = recipe.rollouts();
        return TrainingConfig.builder().algorithm(algorithm)
                .groupSize(g.groupSize()).groupsPerStep(g.groupsPerStep()).maxPolicyLag(mode.maxPolicyLag()).turnBarrier(mode.turnBarrier())
                .oversampling(g.oversampling())
                .athletes(athletes)
                .rollouts(new RolloutSettings(g.temperature(), r.maxNewTokens(), r.maxTurns(), r.maxTotalTokens()))
                .lora(g.lora()).learningRate(g.lr()).klBeta(0).entropyBonus(g.entropyBonus())
                .checkpointEvery(checkpointEvery)
                .seed(seed)
                .limits(limits)
                .device(device)
                .build();
    }
}
