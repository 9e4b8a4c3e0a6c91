package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the {@code POST /jobs} body as {@code JobRoutes} reads it: every body is refused with a reason or becomes
 * a job whose run folder is inside the runs folder and whose dataset is inside the data folder; nothing else
 * escapes. Tries: {@code jqwik.tries.default}.
 */
class JobSpecFuzzTest {

    private static final String SEED = "20261124";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RUNS = Path.of("/srv/toolcoach/runs");
    private static final Path DATA = Path.of("/srv/toolcoach/data");

    @Property(seed = SEED)
    void everyBodyIsRefusedOrConfinedToTheNodesFolders(@ForAll("bodies") String body) {
        TrainingJobSpec options;
        try {
            options = TrainingJobSpec.fromNetwork(body, RUNS, DATA, Path.of("models"));
        } catch (JsonProcessingException | IllegalArgumentException refused) {
            String why = refused instanceof JsonProcessingException j ? j.getOriginalMessage() : refused.getMessage();
            assertFalse(why == null || why.isBlank(), "a reason");
            return;
        }
        assertTrue(options.runDir().normalize().startsWith(RUNS) && !options.runDir().normalize().equals(RUNS), options.runDir().toString());
        assertTrue(options.dataDir().equals(DATA), options.dataDir().toString());
        if (options.dataset() != null) {
            assertTrue(options.dataset().normalize().startsWith(DATA), options.dataset().toString());
        }
    }

    @Provide
    Arbitrary<String> bodies() {
        Arbitrary<String> path = Arbitraries.oneOf(Arbitraries.strings().withChars("./\\a~\u0000 ").ofMaxLength(12),
                Arbitraries.of("..", "../x", "a/../../b", "/etc/passwd", "a/./b.jsonl", "~/x", ".", "", "a/..", "C:\\x"));
        Arbitrary<ObjectNode> request = Combinators.combine(Arbitraries.of("finance", "", " ", "../x").injectNull(0.1),
                        path.injectNull(0.3), path.injectNull(0.5), path.injectNull(0.9), path.injectNull(0.9),
                        Arbitraries.integers().between(-2, 3).injectNull(0.5), Arbitraries.of("sync", "async", "x").injectNull(0.5))
                .as((task, name, dataset, runsDir, dataDir, steps, mode) -> {
                    ObjectNode body = JSON.createObjectNode();
                    if (task != null) body.put("task", task);
                    if (name != null) body.put("name", name);
                    if (dataset != null) body.put("dataset", dataset);
                    if (runsDir != null) body.put("runs_dir", runsDir);
                    if (dataDir != null) body.put("data_dir", dataDir);
                    if (steps != null) body.put("steps", steps);
                    if (mode != null) body.put("mode", mode);
                    return body;
                });
        Arbitrary<String> deep = Arbitraries.integers().between(65, 20_000).map(d -> "{\"recipe\": " + "[".repeat(d));
        return Arbitraries.oneOf(request.map(ObjectNode::toString), Arbitraries.strings().all().ofMaxLength(100), deep,
                request.map(ObjectNode::toString).flatMap(s -> Arbitraries.integers().between(0, s.length() - 1)
                        .map(at -> s.substring(0, at) + s.substring(at + 1))));
    }
}
