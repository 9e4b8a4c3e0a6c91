package dev.toolcoach.cluster.job;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.cluster.learner.IdTokenizer;
import dev.toolcoach.testkit.TestAdapters;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineAdapterMetricsTest {

    private static final ModelConfig MODEL = ModelConfig.llama(32, 64, 2, 2, 2, 16, 32);

    private static Map<String, Double> gauges(EngineAdapterMetrics metrics) {
        Map<String, Double> values = new HashMap<>();
        for (MetricSnapshot m : metrics.collect()) {
            values.put(m.getMetadata().getName(), ((GaugeSnapshot) m).getDataPoints().get(0).getValue());
        }
        return values;
    }

    @Test
    void exportsTheEnginesAdapterVersionAndWhenItWasSwappedIn() {
        Instant at = Instant.parse("2026-01-02T03:04:05.250Z");
        EngineAdapterMetrics metrics = new EngineAdapterMetrics(Clock.fixed(at, ZoneOffset.UTC));
        assertEquals(Map.of(), gauges(metrics), "nothing while no job's engine is served");
        try (NDManager manager = NDManager.newBaseManager();
             InferenceEngine engine = new InferenceEngine(Transformer.create(MODEL, ModelWeights.randomHf(MODEL, 1), manager),
                     new IdTokenizer(MODEL.vocabSize()), 1)) {
            metrics.watch(engine);
            assertEquals(Map.of("toolcoach_engine_adapter_version", 0.0, "toolcoach_engine_adapter_swapped_seconds", 0.0), gauges(metrics));
            LoraConfig lora = new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"));
            engine.setAdapter(TestAdapters.random(MODEL, lora, 1, 7));
            long end = System.nanoTime() + 20_000_000_000L;
            while (gauges(metrics).get("toolcoach_engine_adapter_version") < 1 && System.nanoTime() < end) {
                LockSupport.parkNanos(10_000_000); // polling with a deadline: the swap happens on the engine's thread
            }
            assertEquals(Map.of("toolcoach_engine_adapter_version", 1.0,
                    "toolcoach_engine_adapter_swapped_seconds", at.getEpochSecond() + 0.25), gauges(metrics));
            metrics.forget();
            assertTrue(gauges(metrics).isEmpty());
        }
    }
}
