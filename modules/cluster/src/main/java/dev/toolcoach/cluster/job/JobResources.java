package dev.toolcoach.cluster.job;

import dev.toolcoach.cluster.node.NodeSettings;
import akka.actor.typed.ActorSystem;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.model.io.ModelDigest;
import dev.toolcoach.cluster.tools.ClusterToolEnvironment;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.policy.LocalPolicy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** What an athlete node holds while it takes part in a job: the engine over the job's model, the tools, the rollout threads. */
record JobResources(LocalPolicy policy, ClusterToolEnvironment tools, ExecutorService rollouts) implements AutoCloseable {

    /**
     * Checks the node's folder at the job's model path holds the job's model (its {@link ModelDigest}), loads it into one
     * engine for the node's {@code athletes} (off the caller's thread), then reaches the job's tool suites through the
     * cluster; the engine is freed again if the tools cannot be reached.
     */
    static CompletableFuture<JobResources> load(ActorSystem<?> system, JobSpec spec, int athletes, ClusterToolSettings toolSettings) {
        return CompletableFuture
                .supplyAsync(() -> {
                    String local = ModelDigest.of(spec.modelDir());
                    if (!local.equals(spec.modelDigest())) {
                        throw new IllegalStateException("the model folder " + spec.modelDir() + " on this node holds another model than "
                                + "the job's (digest " + local.substring(0, 12) + ", the job's " + abbreviated(spec.modelDigest())
                                + "): every node must see the same models folder");
                    }
                    return LocalPolicy.load(spec.modelDir(), null, null, athletes, NodeSettings.computeDevice(system.settings().config()));
                })
                .thenCompose(policy -> ClusterToolEnvironment.connect(system, spec.suites(), toolSettings)
                        .toCompletableFuture()
                        .whenComplete((tools, failure) -> {
                            if (failure != null) policy.close();
                        })
                        .thenApply(tools -> new JobResources(policy, tools, rolloutThreads(athletes))));
    }

    private static String abbreviated(String digest) {
        return digest.length() > 12 ? digest.substring(0, 12) : digest;
    }

    /** One daemon thread per athlete, at least two. */
    private static ExecutorService rolloutThreads(int athletes) {
        return Executors.newFixedThreadPool(Math.max(2, athletes), r -> {
            Thread t = new Thread(r, "athlete-rollouts");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void close() {
        rollouts.shutdownNow();
        tools.close();
        policy.close();
    }
}
