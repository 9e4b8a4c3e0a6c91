package dev.toolcoach.cluster.toolserver;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.serialization.FrameBudget;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A turn's tool results always fit one frame: as they are, cut to a share each, or as errors the model reads. */
class FrameFitTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final FrameBudget BUDGET = FrameBudget.of(testKit.system());

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static ToolCallResults results(int calls, int chars) {
        return new ToolCallResults("t-1", IntStream.range(0, calls).mapToObj(i -> {
            String text = "r" + i + ":" + "z".repeat(chars);
            return ToolResult.ok(new ToolCall("read", Map.of("n", i)), text, Map.of("rows", List.of(text)), 3, false);
        }).toList());
    }

    @Test
    void resultsThatFitAreSentAsTheyAre() {
        ToolCallResults small = results(3, 1_000);
        assertSame(small, FrameFit.fit(small, BUDGET));
    }

    @Test
    void manyCappedOutputsAddingUpPastTheFrameAreEachCutToAShareAndKeepTheirOrder() {
        ToolCallResults big = results(20, 16_000); // each within the executor's 16,000-character cap; 20 of them are not
        assertTrue(BUDGET.sizeOf(big) > BUDGET.maxBytes());
        ToolCallResults fitted = FrameFit.fit(big, BUDGET);
        assertTrue(BUDGET.sizeOf(fitted) <= BUDGET.maxBytes(), "size " + BUDGET.sizeOf(fitted));
        assertEquals(20, fitted.results().size());
        for (int i = 0; i < 20; i++) {
            ToolResult r = fitted.results().get(i);
            assertEquals(ToolResult.Status.OK, r.status());
            assertTrue(r.truncated() && r.text().startsWith("r" + i + ":"), "call order kept, head kept");
        }
    }

    @Test
    void whenEvenASharePerCallCannotFitEveryCallBecomesAnErrorTheModelReads() {
        ToolCallResults errors = new ToolCallResults("t-1", IntStream.range(0, 500).mapToObj(i -> ToolResult.failed(
                new ToolCall("read", Map.of("n", i)), ToolResult.Status.ERROR, "e".repeat(5_000), 3)).toList());
        ToolCallResults fitted = FrameFit.fit(errors, BUDGET);
        assertTrue(BUDGET.sizeOf(fitted) <= BUDGET.maxBytes());
        assertEquals(500, fitted.results().size());
        assertTrue(fitted.results().get(7).error().startsWith("the tool's output was too large to send back"), fitted.results().get(7).error());
    }
}
