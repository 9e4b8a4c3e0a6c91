package dev.toolcoach.testkit;

import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One generator for a batch whose trajectories each follow their own script: every request goes
 * to the generator of its trajectory, as an engine serving many rollouts keeps them apart.
 */
public final class PerTrajectoryGenerator implements Generator {

    private final Map<String, Generator> byTrajectory;

    public PerTrajectoryGenerator(Map<String, ? extends Generator> byTrajectory) {
        this.byTrajectory = Map.copyOf(byTrajectory);
    }

    @Override
    public CompletionStage<Generation> generate(GenerationRequest request) {
        Generator generator = byTrajectory.get(request.trajectoryId());
        if (generator == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no script for trajectory "
                    + request.trajectoryId()));
        }
        return generator.generate(request);
    }

    @Override
    public void release(String trajectoryId) {
        Generator generator = byTrajectory.get(trajectoryId);
        if (generator != null) generator.release(trajectoryId);
    }
}
