package dev.toolcoach.tools.hpo;

import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HpoToolsTest {

    private static HpoLab lab;

    @BeforeAll
    static void lab() {
        lab = new HpoLab(SharedData.require("hpo"));
    }

    @Test
    void xgboostTrainsThroughItsJavaApiBesideAkkasScala213() throws Exception {
        // XGBoost4J's POM asks for Scala 2.12; the build excludes it, and the Java API must not need it
        assertTrue(scala.util.Properties.versionNumberString().startsWith("2.13"), scala.util.Properties.versionNumberString());
        HpoLab.Scores scores = lab.crossValidate(DataSlice.whole(HpoDataset.BREAST_CANCER), BoosterConfig.defaults(), Long.MAX_VALUE);
        assertTrue(scores.get(HpoMetric.AUC) > 0.95, "auc " + scores);
        assertTrue(scores.get(HpoMetric.ACCURACY) > 0.9, "accuracy " + scores);
    }

    @Test
    void datasetsReadAsDescribed() {
        assertEquals(569, lab.dataset(HpoDataset.BREAST_CANCER).rows());
        assertEquals(30, lab.dataset(HpoDataset.BREAST_CANCER).featureCount());
        assertEquals(3, lab.dataset(HpoDataset.WINE).classes().size());
        assertEquals(1797, lab.dataset(HpoDataset.DIGITS).rows());
        assertEquals(64, lab.dataset(HpoDataset.DIGITS).featureCount());
        assertEquals(442, lab.dataset(HpoDataset.DIABETES).rows());
        assertEquals(HpoDataset.Kind.REGRESSION, lab.dataset(HpoDataset.DIABETES).kind());
        assertEquals(427, lab.trainingRows(DataSlice.whole(HpoDataset.BREAST_CANCER)));
    }

    @Test
    void theSameConfigurationScoredTwiceIsOneResultComputedOnce() {
        try (ToolExecutor tools = new ToolExecutor(HpoTools.suite(lab), ExecutorSettings.defaults())) {
            ToolResult first = call(tools, Map.of("dataset", "wine", "config", "max_depth=3 learning_rate=0.1", "rows", 0.5));
            long trained = lab.trainings();
            // another spelling of the same configuration and slice
            ToolResult again = call(tools, Map.of("dataset", "wine", "config", "learning_rate=0.10, max_depth=3 reg_alpha=0",
                    "rows", 0.50, "metric", "accuracy", "features", "all"));
            assertTrue(first.ok(), first.toString());
            assertEquals(first.text(), again.text());
            assertTrue(first.text().startsWith("cv accuracy 0."), first.text());
            assertEquals(trained, lab.trainings(), "the second call trained nothing");
            assertTrue(call(tools, Map.of("dataset", "wine", "config", "defaults", "rows", 1)).ok(), "an integer share");
        }
    }

    @Test
    void twoCallsOfOneConfigurationAtOnceTrainItOnce() throws Exception {
        DataSlice slice = DataSlice.whole(HpoDataset.WINE).withFeatures("0-9");
        BoosterConfig config = BoosterConfig.parse("max_depth=2 n_estimators=300");
        long before = lab.trainings();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            var first = pool.submit(() -> lab.crossValidate(slice, config, Long.MAX_VALUE));
            var second = pool.submit(() -> lab.crossValidate(slice, config, Long.MAX_VALUE));
            assertEquals(first.get(), second.get());
        } finally {
            pool.shutdown();
        }
        assertEquals(HpoLab.FOLDS, lab.trainings() - before);
    }

    @Test
    void oneSharedLabPerFolder() {
        Path dir = SharedData.require("hpo");
        assertSame(HpoLab.shared(dir), HpoLab.shared(dir.resolve("../hpo")));
    }

    @Test
    void aCallPastItsDeadlineStopsBoostingAndIsNotCached() throws Exception {
        HpoTools hurried = new HpoTools(lab, Duration.ofMillis(50));
        long start = System.nanoTime();
        var error = assertThrows(ToolException.class,
                () -> hurried.crossValidate("digits", "n_estimators=500 max_depth=8", null, null, null));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(error.getMessage().contains("out of time"), error.getMessage());
        assertFalse(error.getMessage().contains("\n"));
        assertTrue(millis < 2_000, "stopped within a round of its deadline, took " + millis + " ms");

        DataSlice slice = DataSlice.whole(HpoDataset.WINE).withRows(0.7);
        BoosterConfig config = BoosterConfig.parse("max_depth=3");
        assertThrows(HpoLab.OutOfTime.class, () -> lab.crossValidate(slice, config, System.nanoTime()));
        long before = lab.trainings();
        lab.crossValidate(slice, config, Long.MAX_VALUE);
        assertEquals(HpoLab.FOLDS, lab.trainings() - before, "the cut call left nothing in the cache");
    }

    @Test
    void badConfigurationsAreOneLineErrorsTheModelReads() {
        try (ToolExecutor tools = new ToolExecutor(HpoTools.suite(lab), ExecutorSettings.defaults())) {
            Map<Map<String, Object>, String> cases = new LinkedHashMap<>();
            cases.put(Map.of("dataset", "wine", "config", "depth=3"), "unknown parameter 'depth'");
            cases.put(Map.of("dataset", "wine", "config", "max_depth=30"), "max_depth must be between 1 and 12, got 30");
            cases.put(Map.of("dataset", "wine", "config", "max_depth=2.5"), "max_depth must be an integer, got 2.5");
            cases.put(Map.of("dataset", "wine", "config", "learning_rate=fast"), "learning_rate must be a number, got 'fast'");
            cases.put(Map.of("dataset", "iris", "config", "max_depth=3"), "no dataset named 'iris'");
            cases.put(Map.of("dataset", "wine", "config", "max_depth=3", "metric", "rmse"), "metric 'rmse' does not apply");
            cases.put(Map.of("dataset", "wine", "config", "max_depth=3", "features", "0-20"), "feature 20 does not exist");
            cases.put(Map.of("dataset", "wine", "config", "max_depth=3", "rows", 0.01), "rows must be a share between 0.1 and 1");
            cases.put(Map.of("dataset", "wine", "config", 3), "");
            cases.forEach((args, message) -> {
                ToolResult r = call(tools, args);
                assertFalse(r.ok(), args + " -> " + r);
                assertTrue(r.error().contains(message), r.error());
                assertFalse(r.error().contains("\n"), r.error());
            });
        }
    }

    @Test
    void describesDatasetsAndParameters() {
        try (ToolExecutor tools = new ToolExecutor(HpoTools.suite(lab), ExecutorSettings.defaults())) {
            ToolResult d = tools.call("t", new ToolCall("describe_dataset", Map.of("dataset", "digits"))).join();
            assertEquals("digits: 1348 rows, features 0-63, multi-class classification (10 classes); metrics accuracy, logloss", d.text());
            ToolResult p = tools.call("t", new ToolCall("list_params", Map.of())).join();
            assertTrue(p.text().startsWith("n_estimators 1-500 (default 100); learning_rate 0.001-1 (default 0.3)"), p.text());
        }
    }

    /** Call times per dataset at defaults, printed for the record (the first call on a dataset also reads it). */
    @Test
    void callsTakeAFractionOfASecondToSeconds() throws Exception {
        for (String dataset : HpoDataset.NAMES) {
            long start = System.nanoTime();
            lab.crossValidate(DataSlice.whole(dataset).withRows(0.9), BoosterConfig.defaults(), Long.MAX_VALUE);
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("hpo cross_validate %s at defaults: %d ms%n", dataset, millis);
            assertTrue(millis < 20_000, dataset + " took " + millis + " ms");
        }
    }

    private static ToolResult call(ToolExecutor tools, Map<String, Object> args) {
        return tools.call("t", new ToolCall("cross_validate", args)).join();
    }
}
