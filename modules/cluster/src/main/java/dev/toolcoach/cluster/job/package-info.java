/**
 * What a job is to the cluster, and how athlete nodes join one.
 * <ul>
 *   <li>{@code GroupPlan}: a job's groups (size, groups per step, policy lag, group and sample limits); the one record
 *       the coach's {@code CoachSettings} and the learner's {@code LearnerSettings} embed, checked once;
 *       {@code GroupPlan.of} from a job's steps and oversampling.</li>
 *   <li>{@code JobAnnouncer}: the running job, registered under {@code toolcoach-job}, answers {@code GetJob} with its
 *       {@code JobSpec} (model folder as a {@code Path}, gate timeout as a {@code Duration}, ADAPT as an
 *       {@code Optional}).</li>
 *   <li>{@code AthleteHost}: an athlete node's athletes: idle until a job is announced, then the job's model in one
 *       engine, an adapter receiver and working athletes.</li>
 *   <li>{@code JobResources} ({@code load}: the job's model, its tools through the cluster, the rollout threads).</li>
 *   <li>{@code EngineMetrics}: the athlete node's engine on {@code /metrics} (adapter version and swap time, KV slots
 *       and what reusing them saved).</li>
 * </ul>
 *
 * <p><b>AthleteHost</b> An athlete node's {@code AthleteHost} keeps idle athletes until the Receptionist lists a
 * {@code JobAnnouncer}; it asks it for the {@code JobSpec}, has {@code JobResources.load} check that its folder at the
 * job's model path is the job's model ({@code model.io.ModelDigest}: SHA-256 over the config, weight, tokenizer and
 * chat-template files, which the job's node took into {@code JobSpec.modelDigest}; another model there is an error the
 * host logs and retries, never served), load the job's base model into one {@code InferenceEngine} (a
 * {@code LocalPolicy} with a batch of one sequence per athlete) and connect a {@code ClusterToolEnvironment} to the
 * job's suites, starts an {@code AdapterReceiver} on that engine, runs the agent {@code JobSpec.agent()} derives from
 * the job's {@code RolloutSettings}, and replaces the idle athletes with working ones (coach and learner reached
 * through the job's singleton proxies). When the announcer goes (the job ended, or its node left) the working athletes
 * stop, the engine is freed and idle athletes come back. A node that joins mid-run ({@code cluster.sh scale}) finds the
 * job the same way. An athlete node that cannot load an announced job (model not on its volume yet, tools not up)
 * retries with a doubling back-off from 1 s to 30 s, instead of waiting for the next job change.
 */
package dev.toolcoach.cluster.job;
