package dev.toolcoach.tasks;

import dev.toolcoach.agent.ActionFormat;

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

    /**
     * The reward of rollouts that act in {@code format}: a task that reads the calls off the model's text (a
     * function-calling dataset) reads them in that format; any other scores what the calls did, whatever the format.
     */
    default TraceReward reward(ActionFormat format) {
        return reward();
    }

    /** The examples split into train and test with a fixed seed. */
    default Split split(double testFraction, long seed) {
        return Split.of(examples(), testFraction, seed);
    }
}
