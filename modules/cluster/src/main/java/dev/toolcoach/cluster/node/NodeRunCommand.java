package dev.toolcoach.cluster.node;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.Precision;
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
            NodeSettings settings = NodeSettings.fromConfig(config);
            checkDevice(settings.device(), settings.precision());
            system = NodeLauncher.start(config, settings);
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

    /**
     * Every model this node loads (an athlete's engine, the learner) is made on the configured device, in its precision:
     * checked before the node starts, so an unknown or missing device is a configuration error.
     */
    private static void checkDevice(String device, String precision) {
        try {
            ComputeDevice.available(device);
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(ComputeDevice.CONFIG_KEY + ": " + e.getMessage());
        }
        try {
            ComputeDevice.precision(ComputeDevice.parse(device), precision);
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(Precision.CONFIG_KEY + ": " + e.getMessage());
        }
    }
}
