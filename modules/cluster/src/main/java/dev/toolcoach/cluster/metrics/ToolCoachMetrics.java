package dev.toolcoach.cluster.metrics;

import akka.actor.AbstractExtensionId;
import akka.actor.ActorSystem;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.cluster.Cluster;
import com.sun.management.OperatingSystemMXBean;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.lang.management.ManagementFactory;

/**
 * The node's Prometheus registry, one per actor system, exposed at {@code /metrics} on the management
 * server. Other components register their own metrics on {@link #registry()}.
 */
public final class ToolCoachMetrics implements Extension {

    public static final Id ID = new Id();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final WireMetrics wire;

    private ToolCoachMetrics(ExtendedActorSystem system) {
        wire = new WireMetrics(registry);
        JvmMemoryMetrics.builder().register(registry);
        // the resident size counts what the heap does not: PyTorch's tensors, the engine's KV cache, thread stacks
        ProcessMetrics.builder().register(registry);
        GaugeWithCallback.builder().name("toolcoach_memory_limit_bytes")
                .help("Memory this process may use: the container's limit where one is set, else the machine's")
                .callback(callback -> callback.call(((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getTotalMemorySize()))
                .register(registry);
        if (system.provider() instanceof akka.cluster.ClusterActorRefProvider) {
            ClusterMembersGauge.register(registry, Cluster.get(system));
        }
    }

    public static ToolCoachMetrics get(ActorSystem system) {
        return ID.get(system);
    }

    public static ToolCoachMetrics get(akka.actor.typed.ActorSystem<?> system) {
        return ID.get(akka.actor.typed.javadsl.Adapter.toClassic(system));
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    public WireMetrics wire() {
        return wire;
    }

    public static final class Id extends AbstractExtensionId<ToolCoachMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public ToolCoachMetrics createExtension(ExtendedActorSystem system) {
            return new ToolCoachMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
