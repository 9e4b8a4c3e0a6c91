package dev.toolcoach.cluster.protocol;

import dev.toolcoach.tasks.TaskExample;

import java.util.Objects;

/**
 * An athlete's protocol: the coach's assignments and the service probe.
 */
public final class AthleteProtocol {

    private AthleteProtocol() {
    }

    /**
     * Everything an athlete accepts. Sealed: the wire protocol is exactly the records listed; {@link Local} is for
     * messages the athlete sends itself (a finished rollout, an ack, the resend tick), which never cross the wire.
     */
    public sealed interface Command permits AssignRollout, EchoProtocol.Echo, Local {
    }

    /** A message the athlete actor sends itself; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * The coach hands one rollout to an athlete that asked for work. CBOR: an example is small next to
     * Artery's 256 KiB frame (its messages, its own tool specs, the oracle's turns and gold facts).
     *
     * @param rolloutId     {@code <groupId>/<i>}, unique in the job; the learner discards a second trace with it
     * @param groupId       the query group (one query, G rollouts) the learner scores together
     * @param example       the training example itself, typed from the dataset to the athlete
     * @param policyVersion the newest adapter version the coach has heard of; the athlete's engine may lag it
     */
    public record AssignRollout(String rolloutId, String groupId, TaskExample example, int policyVersion)
            implements Command, CborSerializable {
        public AssignRollout {
            Objects.requireNonNull(rolloutId, "rolloutId");
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(example, "example");
        }

        /** The training example's id. */
        public String queryId() {
            return example.id();
        }
    }
}
