package dev.toolcoach.cluster.athlete;

import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.cluster.protocol.AssignRollout;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExampleRolloutTest {

    private static AssignRollout assigned(Map<String, Object> example) {
        return new AssignRollout("g3/1", "g3", "q3", example, 2);
    }

    @Test
    void takesTheLastUserMessageOfADatasetExampleAndItsGoldFacts() {
        RolloutRequest request = ExampleRollout.toRequest(assigned(Map.of(
                "id", "q3",
                "messages", List.of(Map.of("role", "system", "content", "be brief"),
                        Map.of("role", "user", "content", "first question"),
                        Map.of("role", "assistant", "content", "an earlier reply"),
                        Map.of("role", "user", "content", "What is 6 * 7?")),
                "gold_answer", "42", "gold", Map.of("message_ids", List.of("m1")), "query", "not this one")));
        assertEquals(new RolloutRequest("g3/1", "g3", "q3", "What is 6 * 7?",
                Map.of("message_ids", List.of("m1"), "gold_answer", "42")), request);
    }

    @Test
    void fallsBackToTheQueryFieldAndNamesTheRolloutWhenThereIsNone() {
        assertEquals("2 + 2?", ExampleRollout.toRequest(assigned(Map.of("query", "2 + 2?", "answer", 4))).query());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExampleRollout.toRequest(
                assigned(Map.of("messages", List.of(Map.of("role", "assistant", "content", "hi"))))));
        assertTrue(e.getMessage().startsWith("rollout g3/1 (query q3): the example has neither a user message"),
                e.getMessage());
    }
}
