package dev.toolcoach.cluster.node;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Starts a node and blocks until it stops (SIGTERM leaves the cluster gracefully through Akka's
 * coordinated shutdown). Bad configuration or a failed start prints one line and returns non-zero.
 * Each node program subclasses it with its own {@link Command} annotation.
 */
@Command(mixinStandardHelpOptions = true, description = "Start the node and join the cluster.")
public class NodeRunCommand implements Callable<Integer> {

    /** Exit code for unusable configuration. */
    public static final int CONFIG_ERROR = 2;
    /** Exit code for a start failure (port in use, management server). */
    public static final int START_ERROR = 3;

    @Mixin
    NodeOptions options;

    @Spec
    CommandSpec spec;

    private final NodeProgram program;
    private final Map<String, String> env;

    public NodeRunCommand(NodeProgram program, Map<String, String> env) {
        this.program = program;
        this.env = Map.copyOf(env);
    }

    public NodeProgram program() {
        return program;
    }

    @Override
    public Integer call() {
        ActorSystem<?> system;
        try {
            Config config = NodeConfigLoader.load(program, options.overrides(), env);
            system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        } catch (NodeConfigException e) {
            spec.commandLine().getErr().println(program.name() + ": " + e.getMessage());
            return CONFIG_ERROR;
        } catch (NodeStartException e) {
            spec.commandLine().getErr().println(program.name() + ": " + e.getMessage());
            return START_ERROR;
        }
        system.getWhenTerminated().toCompletableFuture().join();
        return 0;
    }
}
