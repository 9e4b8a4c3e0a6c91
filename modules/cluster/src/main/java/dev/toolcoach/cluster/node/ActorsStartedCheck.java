package dev.toolcoach.cluster.node;

import akka.actor.ActorSystem;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Akka Management readiness check (named in {@code akka.management.health-checks.readiness-checks}):
 * ready once the node guardian has started the node's actors. Akka's own cluster-membership check
 * adds the requirement that the member is Up.
 */
public final class ActorsStartedCheck implements Supplier<CompletionStage<Boolean>> {

    private final NodeReadiness readiness;

    public ActorsStartedCheck(ActorSystem system) {
        this.readiness = NodeReadiness.get(system);
    }

    @Override
    public CompletionStage<Boolean> get() {
        return CompletableFuture.completedFuture(readiness.actorsStarted());
    }
}
