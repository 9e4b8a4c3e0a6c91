package dev.toolcoach.brain.scratch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.distill.LearnerSft;
import dev.toolcoach.brain.distill.OracleTeacher;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.optim.AdamWConfig;
import dev.toolcoach.learn.optim.LrSchedule;
import dev.toolcoach.model.lora.LoraConfig;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to train a task-sized model from scratch: a distillation warm-up (SFT of every weight on oracle
 * traces), then GRPO with a LoRA adapter on the frozen warmed-up base. How the defaults were measured,
 * and why they are what they are: docs/RECIPE.md.
 *
 * <p>Its JSON form (a {@code --recipe} file, the {@code recipe} of {@code POST /jobs}, a run's {@code config.json})
 * is flat: one field per value, named as in {@link #json()}. What a user writes ({@code --recipe}, {@code POST /jobs}) names
 * only the fields it changes ({@link OverDefaults}); a run's {@code config.json} holds every field.
 *
 * @param shape      the model (its vocabulary comes from the task's texts)
 * @param vocabulary the BPE vocabulary learned from the training texts
 * @param warmup     the distillation warm-up
 * @param grpo       the GRPO phase
 * @param rollouts   the agent's limits and the engine's batch
 * @param evaluation how large the evaluations are
 */
public record ScratchRecipe(ScratchModel.Shape shape, Vocabulary vocabulary, Warmup warmup, Grpo grpo, Rollouts rollouts,
                            Evaluation evaluation) {

    /**
     * @param maxMerges     most BPE merges learned from the training texts
     * @param minMergeCount a merged pair must occur this often in them
     * @param examples      how many training examples' oracle rollouts give those texts, the first of the (shuffled)
     *                      training split; 0: every one. Each is a real rollout through the tools (with code actions a
     *                      sandboxed program per call), so a large task pays for every example before training starts
     */
    public record Vocabulary(int maxMerges, int minMergeCount, int examples) {
        public Vocabulary {
            atLeast("maxMerges", maxMerges, 0);
            atLeast("minMergeCount", minMergeCount, 0);
            atLeast("vocabularyExamples", examples, 0);
        }

        /** The training examples whose oracle texts the vocabulary is learned from. */
        public <T> List<T> from(List<T> training) {
            return examples == 0 || examples >= training.size() ? training : training.subList(0, examples);
        }
    }

    /**
     * @param traces oracle traces the warm-up learns from
     * @param epochs passes over them
     * @param batch  traces per optimiser step
     * @param lr     peak learning rate (linear warm-up, cosine decay)
     * @param heldOut  oracle traces of further queries scored after every pass (held-out loss and policy entropy); 0: none
     * @param patience passes without a lower held-out loss before the warm-up stops at its best pass; 0: all passes run
     * @param targetLoss the warm-up stops after the first pass whose held-out loss (nats per token) is at most this, the
     *                 {@code epochs} being the cap (the learning rate's schedule spans them); 0: all passes run. The
     *                 default 0.04 with a cap of 24 passes: docs/RECIPE.md
     * @param teacherErrors share of the warm-up's queries the teacher gets wrong ({@link OracleTeacher.Errors}: it makes the
     *                 oracle's calls and misreads its answer), all its demonstrations kept; 0: the task's oracle, only right
     *                 demonstrations kept
     */
    public record Warmup(int traces, int epochs, int batch, double lr, int heldOut, int patience, double targetLoss,
                         double teacherErrors) {
        /** A demonstration whose task reward reaches this is right: what a warm-up from the oracle keeps. */
        public static final double RIGHT = 0.9;

        public Warmup {
            atLeast("warmupTraces", traces, 0);
            atLeast("warmupEpochs", epochs, 0);
            atLeast("warmupBatch", batch, traces > 0 ? 1 : 0);
            finiteAtLeastZero("warmupLr", lr);
            new LearnerSft.Validation(heldOut, patience, targetLoss); // checks them
            if (!(teacherErrors >= 0 && teacherErrors < 1)) {
                throw new IllegalArgumentException("warmupTeacherErrors must be in [0, 1), got " + teacherErrors);
            }
        }

        /** Without validation: every pass runs. */
        public Warmup(int traces, int epochs, int batch, double lr) {
            this(traces, epochs, batch, lr, 0, 0, 0, 0);
        }

        public LearnerSft.Validation validation() {
            return new LearnerSft.Validation(heldOut, patience, targetLoss);
        }

        /**
         * The reward a demonstration must pass to be trained on: the oracle's right ones; an imperfect teacher's all of
         * them, since a teacher's errors are what such a warm-up is about.
         */
        public double demonstrationThreshold() {
            return teacherErrors > 0 ? -1 : RIGHT;
        }
    }

    /**
     * @param groupSize     rollouts per query (G)
     * @param groupsPerStep queries per step
     * @param steps         GRPO steps
     * @param temperature   sampling temperature of the rollouts
     * @param lr            learning rate of the LoRA adapter
     * @param callWeight    weight of the oracle-call term of the reward ({@code CallShapedReward}; 0 = the task reward alone)
     * @param lora          the adapter GRPO trains
     * @param oversampling  dynamic sampling: groups whose rewards are all equal are replaced by fresh queries, at most
     *                      this many times {@code steps × groupsPerStep} groups sampled in all; 1 = off
     *                      ({@code TrainingConfig.Batching#oversampling})
     * @param entropyBonus  weight of the policy's entropy per generated token subtracted from the loss; 0 = none
     */
    public record Grpo(int groupSize, int groupsPerStep, int steps, float temperature, double lr, double callWeight,
                       LoraConfig lora, int oversampling, double entropyBonus) {
        public Grpo {
            atLeast("groupSize", groupSize, 1);
            atLeast("groupsPerStep", groupsPerStep, 1);
            atLeast("grpoSteps", steps, 0);
            atLeast("oversampling", oversampling, 1);
            finiteAtLeastZero("temperature", temperature);
            finiteAtLeastZero("grpoLr", lr);
            finiteAtLeastZero("entropyBonus", entropyBonus);
            if (!Double.isFinite(callWeight)) throw new IllegalArgumentException("recipe field callWeight must be a finite number, was " + callWeight);
        }
    }

    /**
     * @param maxTurns       most replies per rollout
     * @param maxTotalTokens most tokens in a rollout's context
     * @param maxNewTokens   most tokens per reply
     * @param engineBatch    sequences the inference engine decodes together
     * @param actionFormat   how the agent acts: one of {@link #ACTION_FORMATS}, taught by its system prompt alone (a model
     *                       from scratch has no family template to act natively in); {@code code-act} runs its programs in
     *                       the athletes' sandbox
     */
    public record Rollouts(int maxTurns, int maxTotalTokens, int maxNewTokens, int engineBatch, ActionFormat actionFormat) {
        public Rollouts {
            atLeast("maxTurns", maxTurns, 1);
            atLeast("maxTotalTokens", maxTotalTokens, 1);
            atLeast("maxNewTokens", maxNewTokens, 1);
            atLeast("engineBatch", engineBatch, 1);
            if (actionFormat == null || !ACTION_FORMATS.contains(actionFormat)) {
                throw new IllegalArgumentException("a model from scratch acts in " + String.join(", ",
                        ACTION_FORMATS.stream().map(ActionFormat::formatName).toList()) + ", not " + actionFormat);
            }
        }

        /** In Tool-N1's compact format, what every recipe acted in before the format was a field. */
        public Rollouts(int maxTurns, int maxTotalTokens, int maxNewTokens, int engineBatch) {
            this(maxTurns, maxTotalTokens, maxNewTokens, engineBatch, ActionFormat.TOOL_N1_COMPACT);
        }
    }

    /** A count read from a recipe: refused naming the field and the value given (a partial recipe's missing counts are 0). */
    private static void atLeast(String field, int value, int min) {
        if (value < min) throw new IllegalArgumentException("recipe field " + field + " must be at least " + min + ", was " + value);
    }

    /** Written as what a good value is: NaN passes every comparison. */
    private static void finiteAtLeastZero(String field, double value) {
        if (!(value >= 0 && Double.isFinite(value))) {
            throw new IllegalArgumentException("recipe field " + field + " must be a finite number >= 0, was " + value);
        }
    }

    /** The formats a model from scratch can act in: those whose system prompt teaches the whole format. */
    public static final List<ActionFormat> ACTION_FORMATS = List.of(ActionFormat.TOOL_N1_COMPACT, ActionFormat.TOOL_N1,
            ActionFormat.CODE_ACT);

    /**
     * The format called {@code name}, for a recipe.
     *
     * @throws IllegalArgumentException naming the formats a recipe takes
     */
    public static ActionFormat actionFormat(String name) {
        return ACTION_FORMATS.stream().filter(f -> f.formatName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown action format '" + name + "'; a model from scratch acts in "
                        + String.join(", ", ACTION_FORMATS.stream().map(ActionFormat::formatName).toList())));
    }

    /**
     * @param testExamples    most test questions held out (20 % of the task's examples up to this): 300 give a 95 %
     *                        interval of about ±5 points at 70 %
     * @param passAtKQueries  most training queries pass@k is measured on (the first ones, those the first steps sample)
     * @param heldOutEvery    job steps between the small held-out evaluations while training (0: none); the curve of
     *                        training rollouts alone hides learning, as dynamic sampling keeps the groups that differ
     * @param heldOutExamples test questions each of those evaluates (the first of the test split): 64 are one batch of
     *                        the default engine, a 95 % interval of about ±11 points at 70 %
     */
    public record Evaluation(int testExamples, int passAtKQueries, int heldOutEvery, int heldOutExamples) {
        public Evaluation {
            if (testExamples < 1 || passAtKQueries < 0 || heldOutEvery < 0 || heldOutExamples < 1) {
                throw new IllegalArgumentException("the evaluation needs testExamples >= 1, passAtKQueries >= 0, heldOutEvery >= 0"
                        + " and heldOutExamples >= 1, got " + testExamples + ", " + passAtKQueries + ", " + heldOutEvery + " and "
                        + heldOutExamples);
            }
        }

        public static Evaluation defaults() {
            return new Evaluation(300, 64, 10, 64);
        }
    }

    /**
     * The measured recipe. Its training settings are {@link TrainingConfig#defaults()}'s (the one set of them), except
     * what is this recipe's own: its steps, the oracle-call weight, dynamic sampling (3: the Brain's synchronous loop
     * cannot sample dynamically, so the Brain's default stays 1) and rollouts sized to a 512-token scratch model.
     */
    public static ScratchRecipe defaults() {
        TrainingConfig training = TrainingConfig.defaults();
        TrainingConfig.Batching batching = training.batching();
        TrainingConfig.Optimisation optimisation = training.optimisation();
        return new ScratchRecipe(new ScratchModel.Shape(128, 384, 4, 4, 4, 512), new Vocabulary(1024, 8, 0),
                new Warmup(800, 24, 16, 3e-3, 100, 0, 0.04, 0),
                new Grpo(batching.groupSize(), batching.groupsPerStep(), 60, (float) training.rollouts().temperature(),
                        optimisation.learningRate(), 0.5, optimisation.lora(), 3, optimisation.entropyBonus()),
                new Rollouts(training.rollouts().maxTurns(), 512, 64, 64), Evaluation.defaults());
    }

    /**
     * Tighter than {@link AgentConfig#TOOL_TIMEOUT} and {@link AgentConfig#TOOL_OUTPUT_CAP} on purpose: a scratch model's
     * whole context is {@code maxTotalTokens} (512) tokens, which a 4000-character tool output would overflow.
     */
    static final Duration TOOL_TIMEOUT = Duration.ofSeconds(10);
    static final int TOOL_OUTPUT_CAP = 1000;

    /** The agent's format and limits, sampling as given. */
    public AgentConfig agent(SamplingParams sampling) {
        return new AgentConfig(rollouts.actionFormat, sampling, rollouts.maxTurns, rollouts.maxTotalTokens, TOOL_TIMEOUT,
                TOOL_OUTPUT_CAP);
    }

    /** Greedy decoding: what evaluation and the oracle's replay use. */
    public AgentConfig greedyAgent() {
        return agent(SamplingParams.greedy(rollouts.maxNewTokens));
    }

    /** The GRPO rollouts' sampling, seeded. */
    public AgentConfig samplingAgent(long seed) {
        return agent(new SamplingParams(grpo.temperature, 0, 1f, rollouts.maxNewTokens, seed));
    }

    /** The warm-up's optimiser: all weights, 10% linear warm-up then cosine to a tenth over every step. */
    public LearnerConfig warmupLearner(long seed) {
        int steps = warmup.epochs * ((warmup.traces + warmup.batch - 1) / warmup.batch);
        return new LearnerConfig(LearnerConfig.defaults(warmup.lr).grpo(), LearnerConfig.defaults(warmup.lr).dpo(),
                new AdamWConfig(0.9, 0.95, 1e-8, 0.0), new LrSchedule(warmup.lr, Math.max(1, steps / 10), steps,
                LrSchedule.Decay.COSINE, 0.1), 1.0, 16, seed);
    }

    public ScratchRecipe withGrpoSteps(int steps) {
        return new ScratchRecipe(shape, vocabulary, warmup, new Grpo(grpo.groupSize, grpo.groupsPerStep, steps, grpo.temperature,
                grpo.lr, grpo.callWeight, grpo.lora, grpo.oversampling, grpo.entropyBonus), rollouts, evaluation);
    }

    public ScratchRecipe withActionFormat(ActionFormat format) {
        return new ScratchRecipe(shape, vocabulary, warmup, grpo, new Rollouts(rollouts.maxTurns, rollouts.maxTotalTokens,
                rollouts.maxNewTokens, rollouts.engineBatch, format), evaluation);
    }

    public ScratchRecipe withWarmupTraces(int traces) {
        return new ScratchRecipe(shape, vocabulary, new Warmup(traces, warmup.epochs, warmup.batch, warmup.lr, warmup.heldOut, warmup.patience,
                warmup.targetLoss, warmup.teacherErrors), grpo, rollouts, evaluation);
    }

    /** The flat JSON form, in the order the recipe has always been written. */
    @JsonValue
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("shape", shape);
        json.put("maxMerges", vocabulary.maxMerges);
        json.put("minMergeCount", vocabulary.minMergeCount);
        json.put("vocabularyExamples", vocabulary.examples);
        json.put("warmupTraces", warmup.traces);
        json.put("warmupEpochs", warmup.epochs);
        json.put("warmupBatch", warmup.batch);
        json.put("warmupLr", warmup.lr);
        json.put("warmupHeldOut", warmup.heldOut);
        json.put("warmupPatience", warmup.patience);
        json.put("warmupTargetLoss", warmup.targetLoss);
        json.put("warmupTeacherErrors", warmup.teacherErrors);
        json.put("groupSize", grpo.groupSize);
        json.put("groupsPerStep", grpo.groupsPerStep);
        json.put("grpoSteps", grpo.steps);
        json.put("temperature", grpo.temperature);
        json.put("grpoLr", grpo.lr);
        json.put("callWeight", grpo.callWeight);
        json.put("lora", grpo.lora);
        json.put("oversampling", grpo.oversampling);
        json.put("entropyBonus", grpo.entropyBonus);
        json.put("maxTurns", rollouts.maxTurns);
        json.put("maxTotalTokens", rollouts.maxTotalTokens);
        json.put("maxNewTokens", rollouts.maxNewTokens);
        json.put("engineBatch", rollouts.engineBatch);
        json.put("actionFormat", rollouts.actionFormat.formatName());
        json.put("testExamples", evaluation.testExamples);
        json.put("passAtKQueries", evaluation.passAtKQueries);
        json.put("heldOutEvery", evaluation.heldOutEvery);
        json.put("heldOutExamples", evaluation.heldOutExamples);
        return json;
    }

    /**
     * A recipe a user wrote: the fields it names over {@link #defaults()}, so {@code {"grpoSteps": 120}} is the default
     * recipe with 120 steps. (A run's {@code config.json} is read as written, {@link #fromJson}: its missing fields are
     * those added after it was written, read as what the run meant.)
     *
     * @throws JsonProcessingException naming the field refused, or when {@code given} is not a JSON object
     */
    public static ScratchRecipe overDefaults(JsonNode given) throws JsonProcessingException {
        if (!(given instanceof ObjectNode fields)) throw MismatchedInputException.from(null, ScratchRecipe.class, "a recipe must be a JSON object");
        ObjectNode recipe = RECIPE_JSON.valueToTree(defaults());
        recipe.setAll(fields);
        return RECIPE_JSON.treeToValue(recipe, ScratchRecipe.class);
    }

    private static final ObjectMapper RECIPE_JSON = new ObjectMapper();

    /** {@link #overDefaults} for a request field holding a user's recipe. */
    public static final class OverDefaults extends StdDeserializer<ScratchRecipe> {
        public OverDefaults() {
            super(ScratchRecipe.class);
        }

        @Override
        public ScratchRecipe deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return overDefaults(parser.readValueAsTree());
        }
    }

    /**
     * Reads the flat JSON form ({@link #json()}); a missing number is 0, as it always was, except those added later:
     * a missing {@code oversampling} is 1 (no dynamic sampling, what recipes written before it meant), a missing
     * {@code testExamples}, {@code passAtKQueries} or {@code heldOutExamples} the default evaluation's, a missing
     * {@code heldOutEvery} 0 (no held-out evaluation while training), a missing {@code actionFormat} {@code tool-n1-compact}.
     */
    @JsonCreator
    static ScratchRecipe fromJson(@JsonProperty("shape") ScratchModel.Shape shape,
                                  @JsonProperty("maxMerges") int maxMerges, @JsonProperty("minMergeCount") int minMergeCount,
                                  @JsonProperty("vocabularyExamples") int vocabularyExamples,
                                  @JsonProperty("warmupTraces") int warmupTraces, @JsonProperty("warmupEpochs") int warmupEpochs,
                                  @JsonProperty("warmupBatch") int warmupBatch, @JsonProperty("warmupLr") double warmupLr,
                                  @JsonProperty("warmupHeldOut") int warmupHeldOut, @JsonProperty("warmupPatience") int warmupPatience,
                                  @JsonProperty("warmupTargetLoss") double warmupTargetLoss,
                                  @JsonProperty("warmupTeacherErrors") double warmupTeacherErrors,
                                  @JsonProperty("groupSize") int groupSize, @JsonProperty("groupsPerStep") int groupsPerStep,
                                  @JsonProperty("grpoSteps") int grpoSteps, @JsonProperty("temperature") float temperature,
                                  @JsonProperty("grpoLr") double grpoLr, @JsonProperty("callWeight") double callWeight,
                                  @JsonProperty("lora") LoraConfig lora, @JsonProperty("oversampling") Integer oversampling,
                                  @JsonProperty("entropyBonus") double entropyBonus,
                                  @JsonProperty("maxTurns") int maxTurns,
                                  @JsonProperty("maxTotalTokens") int maxTotalTokens, @JsonProperty("maxNewTokens") int maxNewTokens,
                                  @JsonProperty("engineBatch") int engineBatch, @JsonProperty("actionFormat") String actionFormat,
                                  @JsonProperty("testExamples") Integer testExamples,
                                  @JsonProperty("passAtKQueries") Integer passAtKQueries,
                                  @JsonProperty("heldOutEvery") int heldOutEvery,
                                  @JsonProperty("heldOutExamples") Integer heldOutExamples) {
        ActionFormat format = actionFormat == null ? ActionFormat.TOOL_N1_COMPACT : recipeField(actionFormat);
        return new ScratchRecipe(shape, new Vocabulary(maxMerges, minMergeCount, vocabularyExamples), new Warmup(warmupTraces, warmupEpochs, warmupBatch, warmupLr, warmupHeldOut, warmupPatience,
                        warmupTargetLoss, warmupTeacherErrors),
                new Grpo(groupSize, groupsPerStep, grpoSteps, temperature, grpoLr, callWeight, lora, oversampling == null ? 1 : oversampling, entropyBonus),
                new Rollouts(maxTurns, maxTotalTokens, maxNewTokens, engineBatch, format),
                new Evaluation(testExamples == null ? Evaluation.defaults().testExamples() : testExamples,
                        passAtKQueries == null ? Evaluation.defaults().passAtKQueries() : passAtKQueries, heldOutEvery,
                        heldOutExamples == null ? Evaluation.defaults().heldOutExamples() : heldOutExamples));
    }

    private static ActionFormat recipeField(String actionFormat) {
        try {
            return actionFormat(actionFormat);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("recipe field actionFormat: " + e.getMessage(), e);
        }
    }
}
