package dev.toolcoach.brain;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.tools.ClusterToolEnvironment;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.cluster.toolserver.ToolHostSettings;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.tools.skills.SkillLibrary;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The agent's tool suite and where it is served: a built-in suite opened in this process (with its options and approved
 * skills), or the suite of that name the cluster's tool nodes host (e.g. an MCP server), reached through {@code node};
 * or none ({@link #NONE}): the agent is offered each example's own tools and nothing runs them (a function-calling
 * dataset, whose reward reads the calls), so every call is {@code UNKNOWN_TOOL}.
 *
 * @param suite   the suite's name, or {@link #NONE}
 * @param hosted  the cluster's tool nodes host it, rather than this process
 * @param options the built-in suites' options (mailboxes, skills); unused for a hosted suite
 * @param node    the node a hosted suite is reached through; null when training runs embedded
 */
public record AgentTools(String suite, boolean hosted, BuiltinSuites.Options options, JobNode node) {
    /** The suite of an agent that is offered each example's own tools and runs none of them. */
    public static final String NONE = "";

    public AgentTools {
        Objects.requireNonNull(suite, "a Brain needs a tool suite: call tool, hostedTool or exampleToolsOnly");
        if (suite.equals(NONE) && hosted) throw new IllegalArgumentException("no suite is hosted by the cluster's tool nodes");
        Objects.requireNonNull(options, "options");
        if (hosted && node == null) {
            throw new IllegalArgumentException("tool suite '" + suite + "' is hosted by the cluster's tool nodes: "
                    + "the Brain needs its node (onNode)");
        }
        if (hosted && options.skills() != null) {
            throw new IllegalArgumentException("skills join built-in suites only, not the cluster's suite '" + suite + "'");
        }
    }

    /**
     * The tools for rollouts on this node (evaluation, distillation, a job's oracle texts, the synchronous loop): the
     * built-in suite's executor with a tool node's limits for it, or a connection to the tool nodes as the athletes have.
     * Close it after use.
     *
     * @throws IllegalArgumentException when the suite cannot be opened or no tool node hosts it in time
     */
    public Open open() {
        if (hosted) {
            try {
                return new Open(ClusterToolEnvironment.connect(node.system(), List.of(suite),
                        ClusterToolSettings.fromConfig(node.system().settings().config())).toCompletableFuture().join());
            } catch (CompletionException e) {
                throw new IllegalArgumentException(e.getCause() == null ? e.getMessage() : e.getCause().getMessage(), e);
            }
        }
        if (suite.equals(NONE)) return new Open(new NoTools());
        try {
            // the limits a tool node would serve the suite with (toolcoach.tools.<suite>.executor over the shared block)
            ExecutorSettings limits = ToolHostSettings.fromConfig(ConfigFactory.load()).executor(suite);
            return new Open(new ToolExecutor(BuiltinSuites.withSkills(BuiltinSuites.open(suite, options).suite(), options), limits));
        } catch (MailSourceException e) {
            throw new IllegalArgumentException("cannot open tool suite '" + suite + "': " + e.getMessage(), e);
        }
    }

    /** The suites the job's rollouts call: this one, or none. */
    public List<String> suites() {
        return suite.equals(NONE) ? List.of() : List.of(suite);
    }

    /** The specifications of the suite's tools. */
    public List<ToolSpec> specs() {
        try (Open tools = open()) {
            return tools.specs();
        }
    }

    /**
     * CRYSTALLIZE: successful traces of this agent mined into validated composite tools over the built-in suite, saved in
     * {@code skillsDir}. The traces' results went through the tool executor's output cap and then the agent's:
     * validation replays cut the same.
     */
    public Crystallizer.Report crystallize(List<Trace> traces, Path skillsDir, Crystallizer.Settings settings, String source) {
        if (hosted) throw new IllegalArgumentException("skills are mined over built-in suites, not the cluster's suite '" + suite + "'");
        if (suite.equals(NONE)) throw new IllegalArgumentException("skills are mined over built-in suites; this agent calls none");
        try (BuiltinSuites.Hosted open = BuiltinSuites.open(suite, options)) {
            return new Crystallizer(settings).crystallize(traces, open.suite(), new SkillLibrary(skillsDir), source);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write skills to " + skillsDir + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot open tool suite '" + suite + "': " + e.getMessage(), e);
        }
    }

    /** No tools: every call comes back as an unknown tool, at once. */
    private static final class NoTools implements ToolEnvironment, AutoCloseable {
        @Override
        public List<ToolSpec> specs() {
            return List.of();
        }

        @Override
        public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
            return calls.stream().<CompletionStage<ToolResult>>map(call -> CompletableFuture.completedFuture(ToolResult.failed(call,
                    ToolResult.Status.UNKNOWN_TOOL, "unknown tool '" + call.name() + "': this agent's tools are not run", 0))).toList();
        }

        @Override
        public void close() {
        }
    }

    /** The agent's tools, open until closed: a built-in suite's executor or a connection to the cluster's tool nodes. */
    public static final class Open implements ToolEnvironment, AutoCloseable {
        private final ToolEnvironment tools;
        private final AutoCloseable owner;

        private <T extends ToolEnvironment & AutoCloseable> Open(T tools) {
            this.tools = tools;
            this.owner = tools;
        }

        @Override
        public List<ToolSpec> specs() {
            return tools.specs();
        }

        @Override
        public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
            return tools.execute(trajectoryId, calls);
        }

        @Override
        public CompletionStage<Void> release(String trajectoryId) {
            return tools.release(trajectoryId);
        }

        @Override
        public void close() {
            try {
                owner.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the tools: " + e.getMessage(), e);
            }
        }
    }
}
