package dev.toolcoach.cluster.coach;

import dev.toolcoach.tasks.TaskExample;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Small datasets for the coach's tests: query {@code q<i>} asks for {@code i + 1}. */
final class TrainingQueries {

    private TrainingQueries() {
    }

    static List<TaskExample> of(int count) {
        return IntStream.range(0, count).mapToObj(TrainingQueries::example).toList();
    }

    static TaskExample example(int i) {
        return TaskExample.question("q" + i, "what is " + i + " + 1?", String.valueOf(i + 1), List.of(), Map.of());
    }
}
