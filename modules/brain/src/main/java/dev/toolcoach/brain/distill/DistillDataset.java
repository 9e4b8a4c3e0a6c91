package dev.toolcoach.brain.distill;

import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The examples to collect demonstrations on, and the reward that decides which demonstrations are
 * good enough to learn from.
 *
 * @param id a name for the dataset (the cache key also covers its content)
 */
public record DistillDataset(String id, List<TaskExample> examples, TraceReward reward) {
    public DistillDataset {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(reward, "reward");
        examples = List.copyOf(examples);
        if (examples.isEmpty()) throw new IllegalArgumentException("dataset " + id + " has no examples");
    }

    public static DistillDataset of(Task task, List<TaskExample> examples) {
        return new DistillDataset(task.name(), examples, task.reward());
    }

    /** SHA-256 of the examples as JSON Lines: any change to a query, gold answer or tool changes it. */
    public String contentDigest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (TaskExample e : examples) {
                sha.update(ExampleJsonl.toJson(e).getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
