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
        assertSame(r, new OutputCap(5).apply(r));
    }

    @Test
    void keepsHeadAndTailAndSaysHowMuchIsGone() {
        ToolResult r = ToolResult.ok(call, "0123456789abcdefghij", Map.of("n", 1), 2, false);
        ToolResult cut = new OutputCap(6).apply(r);
        assertEquals("012" + OutputCap.marker(14) + "hij", cut.text());
        assertTrue(cut.truncated());
        assertEquals(Map.of("n", 1), cut.structured(), "structured output for rewards is kept whole");
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
