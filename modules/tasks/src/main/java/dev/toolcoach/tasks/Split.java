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
        List<TaskExample> shuffled = new ArrayList<>(examples);
        Collections.shuffle(shuffled, new Random(seed));
        int testSize = (int) Math.round(testFraction * shuffled.size());
        return new Split(shuffled.subList(testSize, shuffled.size()), shuffled.subList(0, testSize));
    }
}
