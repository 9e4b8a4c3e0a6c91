package dev.toolcoach.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaggedActionCodecTest {

    private final ToolCallCodec codec = ActionFormat.TOOL_N1.codec();
    private final ArgumentValidator tools = new ArgumentValidator(ActionParserTest.TOOLS);

    @Test
    void whatTheCodecWritesItReadsBackStrictly() {
        List<ToolCall> calls = List.of(new ToolCall("add", Map.of("a", 1, "b", 2)), new ToolCall("now", Map.of()));
        ParsedCompletion read = codec.readStrict(codec.writeThinking("sum first") + "\n" + codec.writeCalls(calls), tools);
        assertEquals("sum first", read.thought());
        assertEquals(calls, read.toolCalls());
        assertEquals("42", codec.readStrict(codec.writeThinking("done") + codec.writeAnswer("42"), tools).finalAnswer());
    }

    @Test
    void writtenCallsKeepTheirLayout() {
        var args = new ObjectMapper().createObjectNode().put("a", 1);
        List<ToolCallCodec.WrittenCall> calls = List.of(new ToolCallCodec.WrittenCall("add", args));
        assertEquals("<tool_call>[{\"name\":\"add\",\"arguments\":{\"a\":1}}]</tool_call>", codec.writeCalls(calls, false));
        assertEquals("<tool_call>\n[{\"name\":\"add\",\"arguments\":{\"a\":1}}]\n</tool_call>", codec.writeCalls(calls, true));
    }

    @Test
    void aLenientReadingSaysHowFarItGotAndWhy() {
        ToolCallCodec.CallReading cut = codec.readCalls("<think>t</think><tool_call>[{\"name\": \"now\"}]</tool_call><tool_call>[{\"na");
        assertEquals(1, cut.blocks().size());
        assertTrue(cut.cutOff());
        assertTrue(cut.thinkingFirst());
        assertTrue(cut.error().contains("never closed"), cut.error());

        ToolCallCodec.CallReading broken = codec.readCalls("<tool_call>{\"name\": }</tool_call>");
        assertFalse(broken.cutOff());
        assertFalse(broken.thinkingFirst());
        assertTrue(broken.error().startsWith("tool call is not valid JSON"), broken.error());

        ToolCallCodec.CallReading single = codec.readCalls("<tool_call>{\"name\": \"now\"}</tool_call>");
        assertNull(single.error());
        assertEquals("now", single.blocks().get(0).get(0).path("name").asText());
        assertEquals("no <tool_call> block", codec.readCalls("just text").error());
    }

    @Test
    void onlyHermesTakesAPlainReplyAsTheAnswer() {
        assertEquals("It is 42.", ActionFormat.HERMES.codec().readStrict("<think>t</think> It is 42. ", tools).finalAnswer());
        assertNull(codec.readStrict("<think>t</think> It is 42. ", tools).finalAnswer());
        assertEquals("It is 42.", codec.textOutsideThinking("<think>t</think> It is 42. <think>more"));
    }
}
