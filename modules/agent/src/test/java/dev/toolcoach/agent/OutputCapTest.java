package dev.toolcoach.agent;

import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutputCapTest {

    private final ToolCall call = new ToolCall("read", Map.of());

    @Test
    void leavesShortOutputAlone() {
        ToolResult r = ToolResult.ok(call, "short", Map.of("n", 1), 2, false);
        assertSame(r, new OutputCap(8).apply(r));
    }

    @Test
    void keepsHeadAndTailAndSaysHowMuchIsGone() {
        ToolResult r = ToolResult.ok(call, "0123456789abcdefghij", Map.of("n", 1), 2, false);
        ToolResult cut = new OutputCap(8).apply(r);
        assertEquals("0123" + OutputCap.marker(12) + "ghij", cut.text());
        assertTrue(cut.truncated());
        assertEquals(Map.of("n", 1), cut.structured(), "structured output within the cap is kept whole");
    }

    @Test
    void structuredOutputAndErrorsOverTheCapAreCappedToo() {
        Map<String, Object> rows = Map.of("rows", java.util.List.of("z".repeat(5_000), "z".repeat(5_000)));
        ToolResult big = ToolResult.ok(call, "two rows", rows, 2, false);
        ToolResult cut = new OutputCap(1_000).apply(big);
        assertEquals("two rows", cut.text());
        assertEquals("two rows", cut.structured(), "a structure larger than the cap is replaced by the capped text");
        assertTrue(cut.truncated());

        ToolResult failed = ToolResult.failed(call, ToolResult.Status.ERROR, "e".repeat(50_000), 2);
        ToolResult cutError = new OutputCap(1_000).apply(failed);
        assertTrue(cutError.error().length() < 1_100 && cutError.text().length() < 1_100, "error and text within the cap");
        assertTrue(cutError.error().contains("characters truncated"));
    }

    @Test
    void neverSplitsASurrogatePair() {
        String text = "a😀" + "x".repeat(20) + "😀b";
        String cut = new OutputCap(4).truncate(text);
        assertEquals("a" + OutputCap.marker(24) + "b", cut, "half an emoji at either edge is dropped whole");
        assertEquals(cut, new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), "no lone surrogate");
    }

    @Test
    void cutsTenMegabytesToTheCap() {
        String huge = "y".repeat(10 * 1024 * 1024);
        String cut = new OutputCap(4000).truncate(huge);
        assertEquals(4000 + OutputCap.marker(huge.length() - 4000).length(), cut.length());
    }
}
