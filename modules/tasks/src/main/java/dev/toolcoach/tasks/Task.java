package dev.toolcoach.tasks;

import java.util.List;

/**
 * Something to train and evaluate an agent on: queries with gold answers, the tool suites they
 * need, a reward, and an oracle (each example's {@link TaskExample#solution()}) that solves them.
 */
public interface Task {

    String name();

    /** Names of the tool suites the agent needs (empty when examples bring their own tools). */
    List<String> toolSuites();

    /** All examples, in a fixed order. */
    List<TaskExample> examples();

    TraceReward reward();

    /** The examples split into train and test with a fixed seed. */
    default Split split(double testFraction, long seed) {
        return Split.of(examples(), testFraction, seed);
    }
}
