package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ActionParser;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatToolCall;
import dev.toolcoach.openai.FunctionCall;
import dev.toolcoach.trace.ParsedCompletion;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two translations between the teacher's chat and the student's text. */
class TeacherTextTest {

    private final ChatMlFormat chat = new ChatMlFormat();
    private final ObservationText observations = new ObservationText(chat);
    private final ActionParser parser = new ActionParser(ActionFormat.TOOL_N1, FinanceTools.specs());

    @Test
    void parallelToolOutputsAreRecoveredOnePerCall() {
        List<String> outputs = List.of("1628.89", "line one\nline two");
        String appended = chat.closeReply(true) + chat.renderMessage(chat.toolResponses(outputs)) + chat.generationPrefix();

        String content = observations.messageContent(appended, true);

        assertEquals(chat.toolResponses(outputs).content(), content);
        assertEquals(Optional.of(outputs), observations.outputs(content, 2));
        assertEquals(Optional.empty(), observations.outputs(content, 3));
    }

    @Test
    void aCutOffReplyIsClosedWithTheWholeEndMarker() {
        String appended = chat.closeReply(false) + chat.renderMessage(chat.toolResponses(List.of("feedback")))
                + chat.generationPrefix();

        assertEquals(Optional.of(List.of("feedback")),
                observations.outputs(observations.messageContent(appended, false), 1));
    }

    @Test
    void nativeCallsBecomeAToolCallListTheStudentParses() {
        ChatMessage reply = new ChatMessage("assistant", null, List.of(
                new ChatToolCall("c1", "function", new FunctionCall("compound_interest",
                        "{\"principal\": 1000, \"annual_rate\": 0.05, \"years\": 10}")),
                new ChatToolCall("c2", "function", new FunctionCall("cagr",
                        "{\"start_value\": 1000, \"end_value\": 1628.89, \"years\": 10}"))), null, null, "Grow, then rate.");

        ParsedCompletion parsed = parser.parse(ActionText.of(reply, ActionFormat.TOOL_N1));

        assertTrue(parsed.valid(), parsed.toString());
        assertEquals("Grow, then rate.", parsed.thought());
        assertEquals(List.of("compound_interest", "cagr"), parsed.toolCalls().stream().map(c -> c.name()).toList());
        assertEquals(Map.of("principal", 1000, "annual_rate", 0.05, "years", 10), parsed.toolCalls().get(0).arguments());
    }

    @Test
    void aNativeStudentLearnsItsOwnFormat() {
        ChatMessage reply = new ChatMessage("assistant", null, List.of(new ChatToolCall("c1", "function",
                new FunctionCall("compound_interest", "{\"principal\": 1000, \"annual_rate\": 0.05, \"years\": 10}"))),
                null, null, null);
        String hermes = ActionText.of(reply, ActionFormat.HERMES);
        assertEquals("<tool_call>\n{\"name\": \"compound_interest\", \"arguments\": {\"principal\": 1000, "
                + "\"annual_rate\": 0.05, \"years\": 10}}\n</tool_call>", hermes, "no empty think block for a native student");
        String llama = ActionText.of(reply, ActionFormat.LLAMA3_JSON);
        assertEquals("{\"name\": \"compound_interest\", \"parameters\": {\"principal\": 1000, \"annual_rate\": 0.05, "
                + "\"years\": 10}}", llama);
        for (ActionFormat f : List.of(ActionFormat.HERMES, ActionFormat.LLAMA3_JSON)) {
            ParsedCompletion parsed = new ActionParser(f, FinanceTools.specs()).parse(ActionText.of(reply, f));
            assertEquals(Map.of("principal", 1000, "annual_rate", 0.05, "years", 10), parsed.toolCalls().get(0).arguments());
            assertEquals("$1628.89", new ActionParser(f, FinanceTools.specs())
                    .parse(ActionText.of(ChatMessage.assistant("$1628.89"), f)).finalAnswer());
        }
    }

    @Test
    void plainContentIsTheAnswerAndActionTextIsKeptAsWritten() {
        assertEquals("$1628.89", parser.parse(ActionText.of(ChatMessage.assistant("$1628.89"), ActionFormat.TOOL_N1)).finalAnswer());
        String written = "<think>x</think><tool_call>[not json]</tool_call>";
        assertEquals(written, ActionText.of(ChatMessage.assistant(written), ActionFormat.TOOL_N1));
        assertTrue(!parser.parse(written).valid());
    }
}
