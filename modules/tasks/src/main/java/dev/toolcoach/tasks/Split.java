package dev.toolcoach.tasks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** A train/test partition of a task's examples. */
public record Split(List<TaskExample> train, List<TaskExample> test) {

    public Split {
        train = List.copyOf(train);
        test = List.copyOf(test);
    }

    /**
     * Shuffles with the seed and puts {@code round(testFraction * n)} examples in the test set; the
     * same examples, fraction and seed always give the same split.
     */
    public static Split of(List<TaskExample> examples, double testFraction, long seed) {
        if (!(testFraction >= 0 && testFraction <= 1)) {
            throw new IllegalArgumentException("test fraction must be in [0, 1], got " + testFraction);
        }
        return holdOut(examples, (int) Math.round(testFraction * examples.size()), seed);
    }

    /**
     * Shuffles with the seed and puts the first {@code testSize} examples in the test set; with
     * {@code testSize = round(f * n)} this is exactly {@link #of}.
     */
    public static Split holdOut(List<TaskExample> examples, int testSize, long seed) {
        if (testSize < 0 || testSize > examples.size()) {
            throw new IllegalArgumentException("test size must be in [0, " + examples.size() + "], got " + testSize);
        }
        List<TaskExample> shuffled = new ArrayList<>(examples);
        Collections.shuffle(shuffled, new Random(seed));
        return new Split(shuffled.subList(testSize, shuffled.size()), shuffled.subList(0, testSize));
    }
}
