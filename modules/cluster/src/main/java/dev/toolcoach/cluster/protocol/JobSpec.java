package dev.toolcoach.cluster.protocol;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.RolloutSettings;

import java.util.List;
import java.util.Objects;

/**
 * What an athlete node needs to take part in a job: the base model every engine serves (a folder the
 * node can read: the same machine, or a shared file system), how the agent acts and samples, and the tool
 * suites it calls. Adapters come separately, over the weights broadcast.
 *
 * @param jobId          names the job (athlete actors of different jobs never mix)
 * @param modelDir       the base model's Hugging Face folder
 * @param actionFormat   how the agent is asked to act
 * @param suites         tool suites the agent calls (served by tool nodes)
 * @param rollouts       how rollouts sample and how long they may run (the training config's own)
 * @param maxPolicyLag   a rollout waits until its engine's adapter is at most this many versions older than the
 *                       version its assignment names
 * @param gateTimeoutMillis how long a rollout waits for that adapter before it runs anyway
 * @param seed           base seed of the rollouts' sampling
 * @param adapt          TILE's ADAPT for the job's tool calls, or null when it is off
 */
public record JobSpec(String jobId, String modelDir, ActionFormat actionFormat, List<String> suites, RolloutSettings rollouts,
                      int maxPolicyLag, long gateTimeoutMillis, long seed, AdaptSpec adapt)
        implements CborSerializable {
    public JobSpec {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(modelDir, "modelDir");
        Objects.requireNonNull(actionFormat, "actionFormat");
        Objects.requireNonNull(rollouts, "rollouts");
        suites = List.copyOf(suites);
    }

    /** A job without ADAPT. */
    public JobSpec(String jobId, String modelDir, ActionFormat actionFormat, List<String> suites, RolloutSettings rollouts,
                   int maxPolicyLag, long gateTimeoutMillis, long seed) {
        this(jobId, modelDir, actionFormat, suites, rollouts, maxPolicyLag, gateTimeoutMillis, seed, null);
    }

    /** The athletes' agent: {@link RolloutSettings#samplingAgent} with the job's action format and seed. */
    public AgentConfig agent() {
        return rollouts.samplingAgent(actionFormat, seed);
    }
}
