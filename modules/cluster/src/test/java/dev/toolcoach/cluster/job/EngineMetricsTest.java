package dev.toolcoach.cluster.job;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.cluster.learner.IdTokenizer;
import dev.toolcoach.testkit.TestAdapters;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineMetricsTest {

    private static final ModelConfig MODEL = ModelConfig.llama(32, 64, 2, 2, 2, 16, 32);

    /** The adapter gauges (the KV cache's figures have their own test). */
    private static Map<String, Double> gauges(EngineMetrics metrics) {
        Map<String, Double> values = new HashMap<>();
        for (MetricSnapshot m : metrics.collect()) {
            if (m.getMetadata().getName().startsWith("toolcoach_engine_adapter")) {
                values.put(m.getMetadata().getName(), ((GaugeSnapshot) m).getDataPoints().get(0).getValue());
            }
        }
        return values;
    }

    private static Map<String, Double> all(EngineMetrics metrics) {
        Map<String, Double> values = new HashMap<>();
        for (MetricSnapshot m : metrics.collect()) {
            values.put(m.getMetadata().getName(), m instanceof GaugeSnapshot g ? g.getDataPoints().get(0).getValue()
                    : ((CounterSnapshot) m).getDataPoints().get(0).getValue());
        }
        return values;
    }

    @Test
    void exportsTheEnginesKvSlotsAndWhatReusingThemSaved() throws Exception {
        EngineMetrics metrics = new EngineMetrics(Clock.systemUTC());
        try (NDManager manager = NDManager.newBaseManager();
             InferenceEngine engine = new InferenceEngine(Transformer.create(MODEL, ModelWeights.randomHf(MODEL, 1), manager),
                     new IdTokenizer(MODEL.vocabSize()), 3)) {
            metrics.watch(engine);
            int[] context = {1, 2, 3, 4, 5, 6};
            DecodedSequence first = engine.submit("c", context, SamplingParams.greedy(3)).get(30, TimeUnit.SECONDS);
            int[] next = Arrays.copyOf(context, context.length + first.tokens().length + 2);
            System.arraycopy(first.tokens(), 0, next, context.length, first.tokens().length);
            engine.submit("c", next, SamplingParams.greedy(2)).get(30, TimeUnit.SECONDS);
            long end = System.nanoTime() + 20_000_000_000L;
            while (all(metrics).get("toolcoach_engine_reused_tokens") == 0 && System.nanoTime() < end) {
                LockSupport.parkNanos(10_000_000); // the engine publishes its figures after its step
            }
            Map<String, Double> v = all(metrics);
            assertEquals(3.0, v.get("toolcoach_engine_kv_slots"));
            assertEquals(1.0, v.get("toolcoach_engine_kv_slots_parked"), "the conversation's slot is kept for its next turn");
            assertEquals(context.length + first.tokens().length - 1.0, v.get("toolcoach_engine_reused_tokens"));
            assertEquals(context.length + 3.0, v.get("toolcoach_engine_prefill_tokens"), "the prompt, then the last reply token and 2 more");
            assertEquals(0.0, v.get("toolcoach_engine_kv_evictions"));
            assertTrue(v.get("toolcoach_engine_kv_cache_bytes") > 0);
        }
    }

    @Test
    void exportsTheEnginesAdapterVersionAndWhenItWasSwappedIn() {
        Instant at = Instant.parse("2026-01-02T03:04:05.250Z");
        EngineMetrics metrics = new EngineMetrics(Clock.fixed(at, ZoneOffset.UTC));
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
