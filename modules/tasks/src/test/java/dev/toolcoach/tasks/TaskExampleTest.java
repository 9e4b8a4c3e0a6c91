package dev.toolcoach.tasks;

import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.trace.Message;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TaskExampleTest {

    /** What an athlete runs for an assigned example (it used to read the same out of the example's JSON by keys). */
    @Test
    void aRolloutTakesTheLastUserMessageAndCarriesTheGoldFacts() {
        TaskExample example = new TaskExample("q3", List.of(Message.system("be brief"), Message.user("first question"),
                Message.assistant("an earlier reply"), Message.user("What is 6 * 7?")), List.of(), "42",
                List.of(OracleStep.answer("known", "42")), Map.of("message_ids", List.of("m1")));
        assertEquals(new RolloutRequest("g3/1", "g3", "q3", "What is 6 * 7?",
                Map.of("message_ids", List.of("m1"), "gold_answer", "42")), example.rolloutRequest("g3/1", "g3"));
        assertEquals("2 + 2?", TaskExample.question("q4", "2 + 2?", "4", List.of(), Map.of())
                .rolloutRequest("g4/0", "g4").query());
    }
}
