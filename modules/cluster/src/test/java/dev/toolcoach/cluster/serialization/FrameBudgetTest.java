package dev.toolcoach.cluster.serialization;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import dev.toolcoach.cluster.metrics.PrometheusText;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.testing.PrometheusSamples;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A trace is measured as its serializer writes it, against Artery's frame, before anyone sends it. */
class FrameBudgetTest {

    private static final ActorTestKit testKit = ActorTestKit.create();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static Trace trace(int tokens, String answer) {
        int[] ids = new int[tokens];
        for (int i = 0; i < tokens; i++) ids[i] = 100_000 + i; // three-byte varints, so the size is not a trivial run
        return new Trace("g0/0", "g0", "q0", "query", null, new TokenRecord(2, ids, new int[tokens], new float[tokens], new int[tokens]),
                answer, Termination.ANSWER, null, 0, 0, null);
    }

    private static double oversizedTraces() {
        Map<String, Double> samples = PrometheusSamples.parse(new String(
                PrometheusText.scrape(ToolCoachMetrics.get(testKit.system()).registry()), StandardCharsets.UTF_8));
        return samples.getOrDefault("toolcoach_messages_oversized_total{kind=\"TraceDelivery\"}", 0.0);
    }

    @Test
    void aTraceLargerThanTheFrameIsFoundBeforeSendingAndCounted() {
        FrameBudget budget = FrameBudget.of(testKit.system());
        assertEquals(256 * 1024 - FrameBudget.ENVELOPE_RESERVE, budget.maxBytes(), "Artery's default frame less the envelope");
        TestProbe<TraceAck> acks = testKit.createTestProbe();

        TraceDelivery small = new TraceDelivery(trace(4_000, "42"), acks.ref());
        assertTrue(budget.sizeOf(small) < 64 * 1024, "a 4,000-token trace is well below the frame: " + budget.sizeOf(small));
        assertTrue(budget.fits(small));
        double before = oversizedTraces();

        TraceDelivery huge = new TraceDelivery(trace(4_000, "y".repeat(300_000)), acks.ref());
        assertFalse(budget.fits(huge));
        assertEquals(before + 1, oversizedTraces());
    }
}
