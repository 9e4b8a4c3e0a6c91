package dev.toolcoach.brain.jobcontroller;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The coach node's job on its {@code /metrics}, for alert rules (deploy/monitoring: a failed job pages someone):
 * {@code toolcoach_job_state{job, state} 1} for the current or last job's state. Registered once per node; it follows
 * the job controller that runs the node's jobs.
 */
final class JobStateMetrics implements Extension {

    static final Id ID = new Id();

    private final AtomicReference<Supplier<Optional<JobStatus>>> source = new AtomicReference<>(Optional::empty);

    private JobStateMetrics(ExtendedActorSystem system) {
        GaugeWithCallback.builder().name("toolcoach_job_state")
                .help("The current or last job of this coach node: 1 for its state (running, finished, failed, cancelled)")
                .labelNames("job", "state")
                .callback(callback -> source.get().get().ifPresent(s -> callback.call(1, s.name(), s.state())))
                .register(ToolCoachMetrics.get(system).registry());
    }

    static JobStateMetrics get(ExtendedActorSystem system) {
        return ID.get(system);
    }

    /** Reports {@code status} from now on. */
    void follow(Supplier<Optional<JobStatus>> status) {
        source.set(status);
    }

    static final class Id extends AbstractExtensionId<JobStateMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public JobStateMetrics createExtension(ExtendedActorSystem system) {
            return new JobStateMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
