package dev.toolcoach.cluster.protocol;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.lm.SamplingParams;

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
 * @param temperature    sampling temperature
 * @param maxNewTokens   most tokens per reply
 * @param maxTurns       most replies per rollout
 * @param maxTotalTokens most tokens in a rollout's context
 * @param maxPolicyLag   a rollout waits until its engine's adapter is at most this many versions older than the
 *                       version its assignment names
 * @param gateTimeoutMillis how long a rollout waits for that adapter before it runs anyway
 * @param seed           base seed of the rollouts' sampling
 */
public record JobSpec(String jobId, String modelDir, ActionFormat actionFormat, List<String> suites, double temperature,
                      int maxNewTokens, int maxTurns, int maxTotalTokens, int maxPolicyLag, long gateTimeoutMillis, long seed)
        implements CborSerializable {
    public JobSpec {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(modelDir, "modelDir");
        Objects.requireNonNull(actionFormat, "actionFormat");
        suites = List.copyOf(suites);
    }

    /**
     * How the athletes sample: at the job's temperature from the whole distribution (no top-k, no top-p cut),
     * so the log-probs the learner trains with are those of the policy itself.
     */
    public SamplingParams sampling() {
        return SamplingParams.atTemperature((float) temperature, maxNewTokens, seed);
    }
}
