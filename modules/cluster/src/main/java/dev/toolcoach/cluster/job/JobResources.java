package dev.toolcoach.cluster.job;

import dev.toolcoach.cluster.tools.ClusterToolEnvironment;
import dev.toolcoach.policy.LocalPolicy;

import java.util.concurrent.ExecutorService;

/** What an athlete node holds while it takes part in a job: the engine over the job's model, the tools, the rollout threads. */
record JobResources(LocalPolicy policy, ClusterToolEnvironment tools, ExecutorService rollouts) implements AutoCloseable {

    @Override
    public void close() {
        rollouts.shutdownNow();
        tools.close();
        policy.close();
    }
}
