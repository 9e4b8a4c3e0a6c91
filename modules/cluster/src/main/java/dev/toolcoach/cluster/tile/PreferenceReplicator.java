package dev.toolcoach.cluster.tile;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.cluster.ddata.PNCounterMap;
import akka.cluster.ddata.Key;
import akka.cluster.ddata.PNCounterMapKey;
import akka.cluster.ddata.SelfUniqueAddress;
import akka.cluster.ddata.typed.javadsl.Replicator;
import akka.cluster.ddata.typed.javadsl.ReplicatorMessageAdapter;
import dev.toolcoach.agent.adapt.Experience;
import dev.toolcoach.agent.adapt.ToolPreferences;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Thin shell between a node's {@link ToolPreferences} and TILE's replicator: every flush interval it hands the node's
 * new outcomes to the replicated counter map (its own share of each counter), and every change of the map (its own
 * or another node's) goes back as the preferences' replicated base. Local messages only.
 */
final class PreferenceReplicator extends AbstractBehavior<PreferenceReplicator.Command> {
    static final Key<PNCounterMap<String>> KEY = PNCounterMapKey.create("tile-preferences");

    interface Command extends akka.actor.NoSerializationVerificationNeeded {
    }

    private enum Flush implements Command { INSTANCE }

    private record Changed(Replicator.SubscribeResponse<PNCounterMap<String>> response) implements Command {
    }

    private record Updated(Replicator.UpdateResponse<PNCounterMap<String>> response, Map<ToolPreferences.Key, Experience> batch)
            implements Command {
    }

    private record Read(Replicator.GetResponse<PNCounterMap<String>> response) implements Command {
    }

    private final ToolPreferences preferences;
    private final ReplicatorMessageAdapter<Command, PNCounterMap<String>> replicator;
    private final SelfUniqueAddress self;
    private final Consumer<String> onError;

    static Behavior<Command> create(ToolPreferences preferences, ActorRef<Replicator.Command> replicator, SelfUniqueAddress self,
                                    Duration flushInterval, Consumer<String> onError) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(Flush.INSTANCE, flushInterval);
            return new PreferenceReplicator(context, preferences, replicator, self, onError);
        }));
    }

    private PreferenceReplicator(ActorContext<Command> context, ToolPreferences preferences, ActorRef<Replicator.Command> replicator,
                                 SelfUniqueAddress self, Consumer<String> onError) {
        super(context);
        this.preferences = preferences;
        this.self = self;
        this.onError = onError;
        this.replicator = new ReplicatorMessageAdapter<>(context, replicator, Duration.ofSeconds(5));
        this.replicator.subscribe(KEY, Changed::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(Flush.INSTANCE, this::flush)
                .onMessage(Changed.class, this::onChanged)
                .onMessage(Updated.class, this::onUpdated)
                .onMessage(Read.class, this::onRead)
                .build();
    }

    private Behavior<Command> flush() {
        Map<ToolPreferences.Key, Experience> batch = preferences.drain();
        if (batch.isEmpty()) return this;
        replicator.askUpdate(replyTo -> new Replicator.Update<>(KEY, PNCounterMap.create(), Replicator.writeLocal(), replyTo,
                map -> add(map, batch)), response -> new Updated(response, batch));
        return this;
    }

    private PNCounterMap<String> add(PNCounterMap<String> map, Map<ToolPreferences.Key, Experience> batch) {
        PNCounterMap<String> out = map;
        for (Map.Entry<ToolPreferences.Key, Experience> e : batch.entrySet()) {
            if (e.getValue().successes() > 0) out = out.increment(self, PreferenceCounters.entry(e.getKey(), true), e.getValue().successes());
            if (e.getValue().failures() > 0) out = out.increment(self, PreferenceCounters.entry(e.getKey(), false), e.getValue().failures());
        }
        return out;
    }

    private Behavior<Command> onUpdated(Updated updated) {
        if (updated.response() instanceof Replicator.UpdateSuccess) {
            // the drained outcomes are in the local replica now: take it at once rather than at the next change notice
            replicator.askGet(replyTo -> new Replicator.Get<>(KEY, Replicator.readLocal(), replyTo), Read::new);
        } else {
            // not stored: keep the outcomes for the next flush rather than lose them
            preferences.restore(updated.batch());
            onError.accept("tool preferences could not be stored (" + updated.response().getClass().getSimpleName()
                    + "); retried at the next flush");
        }
        return this;
    }

    private Behavior<Command> onRead(Read read) {
        if (read.response() instanceof Replicator.GetSuccess<PNCounterMap<String>> ok) {
            preferences.replicated(PreferenceCounters.decode(ok.get(KEY).getEntries()));
        }
        return this;
    }

    private Behavior<Command> onChanged(Changed changed) {
        if (changed.response() instanceof Replicator.Changed<PNCounterMap<String>> c) {
            preferences.replicated(PreferenceCounters.decode(c.get(KEY).getEntries()));
        }
        return this;
    }
}
