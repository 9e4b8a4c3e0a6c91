package dev.toolcoach.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.SpawnProtocol;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.AskPattern;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
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
 * A one-node cluster holding every role, for the embedded mode: the same actors as a multi-node job,
 * in one JVM. Remoting binds to 127.0.0.1 on a free port and the node joins itself; actors are
 * spawned from outside through Akka's {@link SpawnProtocol}.
 */
public final class EmbeddedNode implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final ActorSystem<SpawnProtocol.Command> system;

    private EmbeddedNode(ActorSystem<SpawnProtocol.Command> system) {
        this.system = system;
    }

    /** Starts the node and waits until it is Up; {@code overrides} come before the node defaults. */
    public static EmbeddedNode start(Config overrides) {
        List<String> roles = Arrays.stream(NodeRole.values()).map(NodeRole::roleName).toList();
        Config config = overrides
                .withFallback(ConfigFactory.parseMap(Map.of(
                        "akka.remote.artery.canonical.port", 0,
                        "akka.cluster.roles", roles)))
                .withFallback(ConfigFactory.parseResources("toolcoach-node.conf", ConfigParseOptions.defaults().setAllowMissing(false)))
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
        ActorSystem<SpawnProtocol.Command> system = ActorSystem.create(SpawnProtocol.create(), NodeConfigLoader.SYSTEM_NAME, config);
        CompletableFuture<Void> up = new CompletableFuture<>();
        akka.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up.complete(null));
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        try {
            up.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            system.terminate();
            throw new NodeStartException("the embedded node did not come up within " + START_TIMEOUT.toSeconds() + "s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            system.terminate();
            throw new NodeStartException("interrupted while the embedded node started");
        }
        return new EmbeddedNode(system);
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

    /** Stops every actor and the node, and waits for it. */
    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("the embedded node did not stop within " + START_TIMEOUT.toSeconds() + "s", e);
        }
    }
}
