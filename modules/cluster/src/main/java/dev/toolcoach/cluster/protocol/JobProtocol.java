package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.adapt.AdaptiveToolEnvironment;
import dev.toolcoach.agent.adapt.EquivalentTools;
import dev.toolcoach.agent.adapt.ToolPreferences;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job announcer's protocol: athlete nodes ask the running job what they need to take part.
 */
public final class JobProtocol {

    private JobProtocol() {
    }

    /**
     * Everything a job announcer accepts. Sealed: the wire protocol is exactly the records listed; {@link Local} is for
     * the job runner's in-process end of the job, which never crosses the wire.
     */
    public sealed interface Command permits GetJob, Local {
    }

    /** A message from the announcer's own node; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /** An athlete node asks the running job what it needs to take part; the announcer answers {@link JobSpec}. */
    public record GetJob(ActorRef<JobSpec> replyTo) implements Command, CborSerializable {
        public GetJob {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /**
     * What an athlete node needs to take part in a job: the base model every engine serves (a folder the
     * node can read: the same machine, or a shared file system), how the agent acts and samples, and the tool
     * suites it calls. Adapters come separately, over the weights broadcast.
     *
     * @param jobId          names the job (athlete actors of different jobs never mix)
     * @param modelDir       the base model's Hugging Face folder, absolute
     * @param modelDigest    the folder's {@code ModelDigest} on the node that runs the job: a node whose folder at that
     *                       path holds another model refuses to serve the job rather than mix models
     * @param actionFormat   how the agent is asked to act
     * @param suites         tool suites the agent calls (served by tool nodes)
     * @param rollouts       how rollouts sample and how long they may run (the training config's own)
     * @param maxPolicyLag   a rollout waits until its engine's adapter is at most this many versions older than the
     *                       version its assignment names
     * @param firstVersion   the adapter version every rollout waits for at least: 1 when the job continues a given adapter
     *                       (never the bare base in its place), else 0
     * @param gateTimeout    the job's rollout timeout: how long a rollout waits for that adapter before it runs anyway,
     *                       and how long it may then run before its athlete stops it
     * @param seed           base seed of the rollouts' sampling
     * @param adapt          TILE's ADAPT for the job's tool calls, empty when it is off
     */
    public record JobSpec(String jobId, Path modelDir, String modelDigest, ActionFormat actionFormat, List<String> suites, RolloutSettings rollouts,
                          int maxPolicyLag, int firstVersion, Duration gateTimeout, long seed, Optional<AdaptSpec> adapt)
            implements CborSerializable {
        public JobSpec {
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(modelDir, "modelDir");
            if (!modelDir.isAbsolute()) throw new IllegalArgumentException("a job's model folder must be absolute, was " + modelDir);
            Objects.requireNonNull(modelDigest, "modelDigest");
            Objects.requireNonNull(actionFormat, "actionFormat");
            Objects.requireNonNull(rollouts, "rollouts");
            Objects.requireNonNull(gateTimeout, "gateTimeout");
            if (firstVersion < 0) throw new IllegalArgumentException("a job's first adapter version cannot be negative, was " + firstVersion);
            Objects.requireNonNull(adapt, "adapt");
            suites = List.copyOf(suites);
        }

        /** The athletes' agent: {@link RolloutSettings#samplingAgent} with the job's action format and seed. */
        public AgentConfig agent() {
            return rollouts.samplingAgent(actionFormat, seed);
        }
    }

    /**
     * TILE's ADAPT for a job's athletes: calls to equivalent tools are served by Thompson sampling over the node's
     * replicated preferences ({@code toolcoach.tile}) in {@code context}, or, with {@code hint}, the sampled tool is named in
     * each rollout's system prompt (seeded by the job's seed and the rollout).
     *
     * @param context    the context key of the job's calls (e.g. {@code task:finance})
     * @param equivalent the groups of equivalent tools (each group's first is the one offered when routing), checked on the coach
     * @param hint       every tool offered and the preference hint in the system prompt instead of routing
     */
    public record AdaptSpec(String context, List<List<String>> equivalent, boolean hint) implements CborSerializable {
        public AdaptSpec {
            Objects.requireNonNull(context, "context");
            equivalent = equivalent.stream().map(List::copyOf).toList();
        }

        /** {@code tools} under ADAPT over {@code preferences}: routing, or hinting seeded by the job's {@code seed}. */
        public ToolEnvironment over(ToolEnvironment tools, ToolPreferences preferences, long seed) {
            EquivalentTools equivalentTools = new EquivalentTools(equivalent);
            return hint ? AdaptiveToolEnvironment.hinting(tools, preferences, equivalentTools, context, seed)
                    : new AdaptiveToolEnvironment(tools, preferences, equivalentTools, context);
        }
    }
}
