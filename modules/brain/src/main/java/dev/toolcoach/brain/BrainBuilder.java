package dev.toolcoach.brain;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.rewards.GroupReward;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.judge.JudgeMode;
import dev.toolcoach.rewards.judge.JudgeSettings;
import dev.toolcoach.rewards.judge.RankingJudge;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tools.BuiltinSuites;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Builds a {@link Brain} ({@link Brain#builder()}); model, tool, reward and work folder are required. */
public final class BrainBuilder {
    private Path modelDir;
    private ActionFormat actionFormat;
    private List<String> suites = List.of();
    private boolean hostedSuite;
    private BuiltinSuites.Options toolOptions = BuiltinSuites.Options.defaults();
    private Path skills;
    private Reward reward;
    private Algorithm algorithm;
    private TrainingConfig config = TrainingConfig.defaults();
    private Path workDir;
    private JobNode node;
    private List<ToolSpec> distractors = List.of();
    private Progress progress = Progress.NONE;
    private AdaptSettings adapt;
    private String adaptContext;

    BrainBuilder() {
    }

    /** Shows how far evaluations and distillation are (e.g. a {@link dev.toolcoach.brain.run.ConsoleProgress}). */
    public BrainBuilder progress(Progress progress) {
        this.progress = Objects.requireNonNull(progress, "progress");
        return this;
    }

    /**
     * Tools added to the agent's catalogue beside its suite (other suites' specifications, dataset schemas: see
     * {@code retrieval.offer.Distractors}); nothing serves them, so a call to one is an error the agent sees.
     * Without {@link Brain#enableToolRetrieval} every query is offered the whole catalogue.
     */
    public BrainBuilder distractorTools(List<ToolSpec> tools) {
        this.distractors = List.copyOf(tools);
        return this;
    }

    /**
     * An LLM judge as the reward (ToolBrain's ranking judge, or RULER's relative scores): each group's rollouts,
     * with their tool calls and outputs, are shown to the model at {@code judge} together, and it ranks them
     * ({@code ranking}: rewards linear in rank, best 1, worst 0) or scores each relative to the others in [0, 1]
     * ({@code relative}). With {@code algorithm(Algorithm.DPO)} the preference pairs follow the judge's order.
     */
    public BrainBuilder judgeReward(OpenAiClient judge, String mode) {
        return reward(new RankingJudge(judge, JudgeSettings.defaults(JudgeMode.parse(mode))).asReward());
    }

    /**
     * Trains on a running cluster through its coach node (this JVM's node, e.g. {@code JobNode.attach(system)}):
     * the cluster's athlete and tool nodes do the rollouts. Without it, training runs embedded: every role
     * on a one-node cluster in this JVM.
     */
    public BrainBuilder onNode(JobNode coachNode) {
        this.node = Objects.requireNonNull(coachNode, "coachNode");
        return this;
    }

    /** A Hugging Face model folder (config.json, safetensors, tokenizer.json). */
    public BrainBuilder model(Path dir) {
        this.modelDir = dir;
        return this;
    }

    /** The action format (default: the model's native one, see {@link Brain#actionFormat()}). */
    public BrainBuilder actionFormat(ActionFormat format) {
        this.actionFormat = Objects.requireNonNull(format, "format");
        return this;
    }

    /** The built-in tool suite the agent uses ({@code arithmetic}, {@code finance}, {@code email}, {@code sql}). */
    public BrainBuilder tool(String suite) {
        this.suites = List.of(suite);
        this.hostedSuite = false;
        return this;
    }

    /**
     * The suite of this name the cluster's tool nodes host (an MCP server in {@code toolcoach.tools.mcp.servers}, or
     * a built-in suite served there) instead of a built-in one opened here: training, evaluation and distillation
     * all call it through the tool nodes. Needs {@link #onNode}.
     */
    public BrainBuilder hostedTool(String suite) {
        this.suites = List.of(suite);
        this.hostedSuite = true;
        return this;
    }

    /**
     * No tool suite: the agent is offered each example's own tools ({@code TaskExample.tools}) and nothing runs them,
     * as in a function-calling dataset whose reward reads the calls off the model's reply (Tool-N1); a call comes back
     * as an unknown tool.
     */
    public BrainBuilder exampleToolsOnly() {
        this.suites = List.of(AgentTools.NONE);
        this.hostedSuite = false;
        return this;
    }

    public BrainBuilder toolOptions(BuiltinSuites.Options options) {
        this.toolOptions = Objects.requireNonNull(options, "options");
        return this;
    }

    /**
     * CRYSTALLIZE's output in use: the approved skills of this skill library folder join the agent's suite as
     * composite tools (offered to the model, run by the tool servers like any tool). Mining and approving skills
     * is {@code coach-node skills}.
     */
    public BrainBuilder skills(Path folder) {
        this.skills = Objects.requireNonNull(folder, "folder");
        return this;
    }

    /** Any reward; per-trace and per-group rewards are both called through this one interface. */
    public BrainBuilder reward(Reward reward) {
        this.reward = reward;
        return this;
    }

    /** A reward on one trace, with the example's fields (gold answer, ...) in its context. */
    public BrainBuilder traceReward(String name, TraceReward reward) {
        return reward(Reward.perTrace(name, reward));
    }

    /** A reward on a whole group at once (a ranking judge). */
    public BrainBuilder groupReward(String name, GroupReward reward) {
        return reward(Reward.ofGroup(name, reward));
    }

    /** GRPO, DPO or SFT, instead of the config's algorithm. */
    public BrainBuilder algorithm(Algorithm a) {
        this.algorithm = Objects.requireNonNull(a, "algorithm");
        return this;
    }

    public BrainBuilder config(TrainingConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        return this;
    }

    /** Where checkpoints, the teacher cache and distilled models go. */
    public BrainBuilder workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /**
     * Turns TILE's ADAPT on: calls to equivalent tools are served by Thompson sampling over the Beta preferences
     * of {@code context} (e.g. {@code task:finance}), learned from every outcome; with {@link AdaptSettings#hint} the
     * agent sees every tool and each rollout's system prompt names the sampled one instead. In evaluation the
     * preferences are this Brain's, kept in the work folder between sessions; in training, the athlete nodes' replicated ones.
     */
    public BrainBuilder adapt(AdaptSettings settings, String context) {
        this.adapt = Objects.requireNonNull(settings, "settings");
        this.adaptContext = Objects.requireNonNull(context, "context");
        return this;
    }

    /** @throws IllegalArgumentException or NullPointerException naming what is missing or wrong */
    public Brain build() {
        Objects.requireNonNull(modelDir, "a Brain needs a model: call model(dir)");
        if (suites.size() != 1) throw new IllegalArgumentException("a Brain's agent uses exactly one tool suite, got " + suites);
        AgentTools tools = new AgentTools(suites.get(0), hostedSuite, skills == null ? toolOptions : toolOptions.withSkills(skills), node);
        return new Brain(modelDir, actionFormat, tools, Objects.requireNonNull(reward, "a Brain needs a reward: call reward, traceReward or groupReward"),
                algorithm == null ? config : config.toBuilder().algorithm(algorithm).build(),
                Objects.requireNonNull(workDir, "a Brain needs a work folder: call workDir(dir)"), distractors, progress,
                adapt == null ? Optional.empty() : Optional.of(new Brain.Adapt(adapt, adaptContext)));
    }
}
