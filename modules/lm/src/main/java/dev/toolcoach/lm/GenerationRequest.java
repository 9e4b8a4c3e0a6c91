package dev.toolcoach.lm;

import java.util.Arrays;
import java.util.Objects;

/**
 * Generate a continuation of {@code context}.
 *
 * @param trajectoryId the run this belongs to; an engine may keep its KV cache under it, since each
 *                     request's context extends the previous one of the same trajectory
 * @param context      every token id the model conditions on
 * @param sampling     how to sample; {@code maxNewTokens} is already cut to the run's token budget
 */
public record GenerationRequest(String trajectoryId, int[] context, SamplingParams sampling) {
    public GenerationRequest {
        Objects.requireNonNull(trajectoryId, "trajectoryId");
        Objects.requireNonNull(sampling, "sampling");
        context = context.clone();
    }

    @Override
    public int[] context() {
        return context.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenerationRequest r && trajectoryId.equals(r.trajectoryId)
                && Arrays.equals(context, r.context) && sampling.equals(r.sampling);
    }

    @Override
    public int hashCode() {
        return Objects.hash(trajectoryId, Arrays.hashCode(context), sampling);
    }

    @Override
    public String toString() {
        return "GenerationRequest[" + trajectoryId + ", context=" + context.length + " tokens, " + sampling + "]";
    }
}
