package dev.toolcoach.cluster.learner;

import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.PeriodicCheckpoints;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.RewardContext;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Everything the learner actor needs for one job.
 *
 * @param settings           batching and staleness
 * @param core               the trainable policy (LoRA on the device; each new adapter version is published); the
 *                           learner is its only user
 * @param algorithm          GRPO, DPO or SFT
 * @param sftRewardThreshold SFT learns only from traces whose reward reaches it
 * @param reward             scores each complete group
 * @param examples           the dataset example of a query id, as the reward sees it (an IllegalArgumentException for an
 *                           id outside the dataset: its group is dropped)
 * @param coach              hears of every rollout received and every group closed
 * @param publisher          sends each new adapter version to the engines
 * @param checkpoints        saves the learner with the coach's cursor every N steps, if given
 * @param probe              runs after the steps it is due at (after their checkpoint), before the next step, if given
 * @param listener           hears of steps, the end of the job and failures
 * @param training           the thread steps run on (one at a time), so traces are acked while a step runs
 */
public record LearnerJob(LearnerSettings settings, LearnerCore core, Algorithm algorithm,
                         double sftRewardThreshold, Reward reward, Function<String, RewardContext> examples,
                         ActorRef<CoachProtocol.Command> coach, ActorRef<AdapterPublisherProtocol.Command> publisher,
                         Optional<PeriodicCheckpoints> checkpoints, Optional<StepProbe> probe, LearnerListener listener,
                         Executor training) {
    public LearnerJob {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(reward, "reward");
        Objects.requireNonNull(examples, "examples");
        Objects.requireNonNull(coach, "coach");
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(checkpoints, "checkpoints");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(training, "training");
    }
}
