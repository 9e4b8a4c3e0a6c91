package dev.toolcoach.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.SpawnProtocol;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.AskPattern;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The node a training job's actors are spawned on (through {@link SpawnProtocol}): either a node started for
 * the job with every role (the embedded mode — the same actors as a multi-node job, on a one-node cluster,
 * remoting and management on free ports of 127.0.0.1), or a running coach node the job is attached to, whose
 * cluster's athlete and tool nodes do the rollouts.
 */
public final class JobNode implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final ActorSystem<SpawnProtocol.Command> system;
    private final boolean owned;

    private JobNode(ActorSystem<SpawnProtocol.Command> system, boolean owned) {
        this.system = system;
        this.owned = owned;
    }

    /** A running node (the coach node of a cluster); closing the job node leaves it running. */
    public static JobNode attach(ActorSystem<SpawnProtocol.Command> system) {
        return new JobNode(system, false);
    }

    /** Every role in this JVM, forming its own cluster; {@code overrides} come before the node defaults. */
    public static JobNode allRoles(Config overrides) {
        return start(overrides, Arrays.stream(NodeRole.values()).map(NodeRole::roleName).toList());
    }

    /** Every role but {@code left} in this JVM (a job that calls no tool suite needs no tool node), as {@link #allRoles}. */
    public static JobNode allRolesBut(Config overrides, NodeRole left) {
        return start(overrides, Arrays.stream(NodeRole.values()).filter(r -> r != left).map(NodeRole::roleName).toList());
    }

    private static JobNode start(Config overrides, List<String> roles) {
        Config config = overrides
                .withFallback(ConfigFactory.parseMap(Map.of(
                        "akka.remote.artery.canonical.port", 0,
                        "akka.management.http.port", 0,
                        "akka.cluster.roles", roles)))
                .withFallback(ConfigFactory.parseResources("toolcoach-node.conf", ConfigParseOptions.defaults().setAllowMissing(false)))
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
        ActorSystem<SpawnProtocol.Command> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        CompletableFuture<Void> up = new CompletableFuture<>();
        akka.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up.complete(null));
        try {
            up.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            system.terminate();
            throw new NodeStartException("the node did not become Up within " + START_TIMEOUT.toSeconds() + "s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            system.terminate();
            throw new NodeStartException("interrupted while the node started");
        }
        return new JobNode(system, true);
    }

    public ActorSystem<SpawnProtocol.Command> system() {
        return system;
    }

    /** Spawns a top-level actor and returns its ref. */
    public <T> ActorRef<T> spawn(Behavior<T> behavior, String name) {
        try {
            return AskPattern.<SpawnProtocol.Command, ActorRef<T>>ask(system,
                            replyTo -> new SpawnProtocol.Spawn<>(behavior, name, Props.empty(), replyTo),
                            START_TIMEOUT, system.scheduler())
                    .toCompletableFuture().join();
        } catch (CompletionException e) {
            throw new IllegalStateException("cannot spawn " + name + ": " + e.getCause(), e.getCause());
        }
    }

    /** A node started for the job leaves the cluster and stops (this waits for it); an attached node goes on. */
    @Override
    public void close() {
        if (!owned) return;
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("the node did not stop within " + START_TIMEOUT.toSeconds() + "s", e);
        }
    }
}
