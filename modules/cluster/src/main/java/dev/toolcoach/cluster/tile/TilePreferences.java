package dev.toolcoach.cluster.tile;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.cluster.ddata.ReplicatorSettings;
import akka.cluster.ddata.SelfUniqueAddress;
import akka.cluster.ddata.typed.javadsl.DistributedData;
import akka.cluster.ddata.typed.javadsl.Replicator;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.toolcoach.agent.adapt.ToolPreferences;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A node's TILE tool preferences ({@code toolcoach.tile}), replicated across the cluster with Akka Distributed Data: a
 * replicator of its own ({@code tileReplicator}, on the nodes of {@code role}, or all) holding one PN-counter map, fed
 * by {@link PreferenceReplicator}. With {@code durable-dir} set the map is kept in a durable store there, so
 * a restarted node starts from what it had ({@link FileDurableStore}; a store that cannot be read is an error at start). Exposes α, β and competence per (context, tool) on {@code /metrics}. Created on first use.
 */
public final class TilePreferences implements Extension, MultiCollector {
    private static final Logger LOG = LoggerFactory.getLogger(TilePreferences.class);
    public static final Id ID = new Id();

    private final ToolPreferences preferences;
    private final AtomicReference<String> failure = new AtomicReference<>();

    private TilePreferences(ExtendedActorSystem classic) {
        Config c = classic.settings().config().getConfig("toolcoach.tile");
        preferences = fresh(classic.settings().config());
        Config ddata = classic.settings().config().getConfig("akka.cluster.distributed-data")
                .withValue("name", ConfigValueFactory.fromAnyRef("tileReplicator"))
                .withValue("role", ConfigValueFactory.fromAnyRef(c.getString("role")))
                .withValue("notify-subscribers-interval", ConfigValueFactory.fromAnyRef(c.getDuration("flush-interval")));
        String durable = c.getString("durable-dir");
        if (!durable.isBlank()) {
            Path dir = Path.of(durable).toAbsolutePath();
            FileDurableStore.check(classic, dir);
            ddata = ConfigFactory.parseMap(java.util.Map.of("durable.keys", List.of(PreferenceReplicator.KEY.id()),
                    "durable.store-actor-class", FileDurableStore.class.getName(), "durable.file.dir", dir.toString()))
                    .withFallback(ddata);
        }
        ActorSystem<?> system = Adapter.toTyped(classic);
        ActorRef<Replicator.Command> replicator = system.systemActorOf(Replicator.behavior(ReplicatorSettings.apply(ddata)),
                "tileReplicator", Props.empty());
        SelfUniqueAddress self = DistributedData.get(system).selfUniqueAddress();
        system.systemActorOf(PreferenceReplicator.create(preferences, replicator, self, c.getDuration("flush-interval"),
                this::fail), "tilePreferences", Props.empty());
        ToolCoachMetrics.get(system).registry().register(this);
    }

    /** Preferences with no experience yet, at the prior and seed of {@code toolcoach.tile} in {@code config}. */
    public static ToolPreferences fresh(Config config) {
        Config c = config.getConfig("toolcoach.tile");
        return new ToolPreferences(new ToolPreferences.Prior(c.getDouble("prior.alpha"), c.getDouble("prior.beta")), c.getLong("seed"));
    }

    public static TilePreferences get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    public ToolPreferences preferences() {
        return preferences;
    }

    /** Why replication stopped working, or null while it works. */
    public String failure() {
        return failure.get();
    }

    private void fail(String why) {
        failure.set(why);
        LOG.error("TILE: {}", why);
    }

    @Override
    public MetricSnapshots collect() {
        GaugeSnapshot.Builder alpha = GaugeSnapshot.builder().name("toolcoach_tile_preference_alpha")
                .help("Beta posterior alpha (prior + successes of every node) per context and tool");
        GaugeSnapshot.Builder beta = GaugeSnapshot.builder().name("toolcoach_tile_preference_beta")
                .help("Beta posterior beta (prior + failures of every node) per context and tool");
        GaugeSnapshot.Builder competence = GaugeSnapshot.builder().name("toolcoach_tile_competence")
                .help("Competence alpha/(alpha+beta) per context and tool");
        preferences.all().forEach((key, e) -> {
            Labels labels = Labels.of("context", key.context(), "tool", key.tool());
            double a = preferences.prior().alpha() + e.successes();
            double b = preferences.prior().beta() + e.failures();
            alpha.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(a).build());
            beta.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(b).build());
            competence.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(a / (a + b)).build());
        });
        return MetricSnapshots.of(alpha.build(), beta.build(), competence.build());
    }

    public static final class Id extends AbstractExtensionId<TilePreferences> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public TilePreferences createExtension(ExtendedActorSystem system) {
            return new TilePreferences(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
