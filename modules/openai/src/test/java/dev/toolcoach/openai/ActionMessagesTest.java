package dev.toolcoach.openai;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.trace.Message;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActionMessagesTest {

    private final ActionMessages format = new ActionMessages(ActionFormat.TOOL_N1);

    @Test
    void readsToolCallsWithThinking() {
        AssistantTurn turn = format.readReply("<think>need weather</think>\n<tool_call>[{\"name\": \"weather\", "
                + "\"arguments\": {\"city\": \"Oslo\", \"days\": 2}}, {\"name\": \"time\", \"arguments\": {}}]</tool_call>");
        assertEquals("need weather", turn.reasoning());
        assertNull(turn.content());
        assertEquals(List.of(new FunctionCall("weather", "{\"city\":\"Oslo\",\"days\":2}"),
                new FunctionCall("time", "{}")), turn.calls());
    }

    @Test
    void readsAnswerAndPlainText() {
        AssistantTurn answer = format.readReply("<think>easy</think><answer> 42 </answer>");
        assertEquals("42", answer.content());
        assertTrue(answer.calls().isEmpty());
        AssistantTurn plain = format.readReply("{\"ranking\": [1, 0]}");
        assertEquals("{\"ranking\": [1, 0]}", plain.content());
        assertNull(plain.reasoning());
    }

    @Test
    void malformedCallBlockIsPassedThroughAsText() {
        AssistantTurn turn = format.readReply("<tool_call>[{\"name\": \"f\", </tool_call>");
        assertTrue(turn.calls().isEmpty());
        assertEquals("<tool_call>[{\"name\": \"f\", </tool_call>", turn.content());
    }

    @Test
    void writesHistoryInActionFormat() {
        ChatMessage call = new ChatMessage("assistant", null,
                List.of(new ChatToolCall("c1", "function", new FunctionCall("weather", "{\"city\":\"Oslo\"}"))),
                null, null, "look it up");
        List<Message> out = format.toActionMessages(List.of(ChatMessage.user("weather?"), call,
                ChatMessage.toolReply("c1", "sunny"), ChatMessage.assistant("It is sunny.")));
        assertEquals(new Message("user", "weather?"), out.get(0));
        assertEquals("<think>look it up</think>\n<tool_call>\n[{\"name\":\"weather\",\"arguments\":{\"city\":\"Oslo\"}}]\n</tool_call>",
                out.get(1).content());
        assertEquals(Message.toolResult("weather", "sunny"), out.get(2), "named by the call its tool_call_id answers");
        assertEquals("<answer>It is sunny.</answer>", out.get(3).content());
    }

    @Test
    void rejectsHistoryWithBadArgumentsNamingTheMessage() {
        ChatMessage bad = new ChatMessage("assistant", null,
                List.of(new ChatToolCall("c1", "function", new FunctionCall("f", "{oops"))), null, null, null);
        RejectedRequest e = assertThrows(RejectedRequest.class,
                () -> format.toActionMessages(List.of(ChatMessage.user("q"), bad)));
        assertTrue(e.getMessage().startsWith("messages[1].tool_calls[0].function.arguments is not valid JSON"), e.getMessage());
        RejectedRequest role = assertThrows(RejectedRequest.class,
                () -> format.toActionMessages(List.of(new ChatMessage("robot", "hi", null, null, null, null))));
        assertEquals("messages[0].role is not one of system, user, assistant, tool", role.getMessage(), "the role given is not echoed");
    }

    @Test
    void streamedDeltasAddUpToTheWholeReply() {
        String text = "<think> weigh it </think>\n<answer>The answer is 42.</answer>";
        ActionStreamer streamer = new ActionStreamer(format, ActionFormat.TOOL_N1.codec());
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        int contentDeltas = 0;
        for (int i = 0; i < text.length(); i++) {
            for (ChatDelta d : streamer.accept(text.substring(i, i + 1))) {
                if (d.content() != null) contentDeltas++;
                assertTrue(d.content() == null || !d.content().contains("<"), "tag leaked: " + d);
                collect(d, content, reasoning);
            }
        }
        assertTrue(contentDeltas > 5, "answer should stream in many deltas, got " + contentDeltas);
        streamer.finish("call_").forEach(d -> collect(d, content, reasoning));
        assertEquals("The answer is 42.", content.toString());
        assertEquals("weigh it", reasoning.toString());
    }

    @Test
    void replyCutOffByTheTokenLimitReadsTheSameStreamedOrWhole() {
        for (String text : List.of("<think>still weighing the opt", "<think>done</think><answer>The answer is 4", "plain words <thi")) {
            ActionStreamer streamer = new ActionStreamer(format, ActionFormat.TOOL_N1.codec());
            StringBuilder content = new StringBuilder();
            StringBuilder reasoning = new StringBuilder();
            for (int i = 0; i < text.length(); i += 2) {
                streamer.accept(text.substring(i, Math.min(text.length(), i + 2))).forEach(d -> collect(d, content, reasoning));
            }
            streamer.finish("call_").forEach(d -> collect(d, content, reasoning));
            AssistantTurn whole = format.readReply(text);
            assertEquals(whole.content() == null ? "" : whole.content(), content.toString(), text);
            assertEquals(whole.reasoning() == null ? "" : whole.reasoning(), reasoning.toString(), text);
        }
        assertEquals("still weighing the opt", format.readReply("<think>still weighing the opt").reasoning());
        assertEquals("", format.readReply("<think>still weighing the opt").content());
        assertEquals("The answer is 4", format.readReply("<think>done</think><answer>The answer is 4").content());
    }

    private static void collect(ChatDelta d, StringBuilder content, StringBuilder reasoning) {
        if (d.content() != null) content.append(d.content());
        if (d.reasoningContent() != null) reasoning.append(d.reasoningContent());
    }
}
