package dev.toolcoach.cluster.coach;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Small datasets for the coach's tests: query {@code q<i>} asks for {@code i + 1}. */
final class TrainingQueries {

    private TrainingQueries() {
    }

    static List<TrainingQuery> of(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new TrainingQuery("q" + i, Map.of("query", "what is " + i + " + 1?", "answer", i + 1)))
                .toList();
    }
}
