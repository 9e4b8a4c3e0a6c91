package dev.toolcoach.rewards;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.calling.CallCategory;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.calling.PossibleCall;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ToolN1RewardTest {

    private static Trace firstTurn(String completion) {
        Turn turn = new Turn("prompt", completion, null, null, List.of(), List.of(), 0, 0);
        return new Trace("r", "g", "q", "q", List.of(turn), null, null, Termination.MAX_TURNS, null, 0, 0, Map.of());
    }

    private static CallingExample triangle() throws IOException {
        FunctionDoc doc = FunctionDoc.fromJson(new ObjectMapper().readTree("{\"name\": \"triangle_area\", \"parameters\": "
                + "{\"type\": \"dict\", \"properties\": {\"base\": {\"type\": \"integer\"}, \"height\": {\"type\": \"integer\"}},"
                + " \"required\": [\"base\", \"height\"]}}"));
        return new CallingExample("t1", CallCategory.SIMPLE, List.of(Message.user("Area of base 10, height 5?")),
                List.of(doc), List.of(new PossibleCall("triangle_area", Map.of("base", List.of(10), "height", List.of(5)))));
    }

    @Test
    void formatAndMatchingCallsBothRequired() throws IOException {
        RewardContext ctx = ToolN1Reward.context(triangle());
        ToolN1Reward reward = new ToolN1Reward(true);
        assertEquals(1.0, reward.score(firstTurn("<think>area needs base and height</think><tool_call>"
                + "[{\"name\": \"triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5}}]</tool_call>"), ctx));
        assertEquals(0.0, reward.score(firstTurn("<tool_call>[{\"name\": \"triangle_area\", "
                + "\"arguments\": {\"base\": 10, \"height\": 5}}]</tool_call>"), ctx), "no think block: format wrong");
        assertEquals(0.0, reward.score(firstTurn("<think>x</think><tool_call>[{\"name\": \"triangle_area\", "
                + "\"arguments\": {\"base\": 10, \"height\": 6}}]</tool_call>"), ctx), "wrong height");
        assertEquals(0.0, reward.score(firstTurn("<think>x</think><tool_call>[{\"name\": </tool_call>"), ctx));
        assertEquals(1.0, new ToolN1Reward(false).score(firstTurn("<tool_call>[{\"name\": \"triangle_area\", "
                + "\"arguments\": {\"base\": 10, \"height\": 5}}]</tool_call>"), ctx));
    }

    @Test
    void missingExampleDropsTheGroupWithTheReason() {
        GroupOutcome out = Rewards.toolN1(true).scoreGroup(List.of(firstTurn("x")), RewardContext.of("q9", "q", null));
        assertEquals(new GroupOutcome.Dropped("reward 'tool_n1' failed on rollout r: example q9 has no "
                + "'calling_example' field, which reward 'tool_n1' needs"), out);
    }

    @Test
    void scoresTheOracleCallsOfRealBfclExamplesAsCorrect() {
        String root = System.getProperty("toolcoach.shared.data");
        assumeTrue(root != null, "toolcoach.shared.data is not set: skipping BFCL test");
        Path questions = Path.of(root, "bfcl", "BFCL_v3_simple.json");
        assumeTrue(Files.exists(questions), questions + " is absent: skipping BFCL test");
        List<CallingExample> examples = new BfclLoader().load(questions,
                Path.of(root, "bfcl", "possible_answer", "BFCL_v3_simple.json")).items().subList(0, 20);
        ToolN1Reward reward = new ToolN1Reward(true);
        ObjectMapper json = new ObjectMapper();
        for (CallingExample ex : examples) {
            String calls = ex.oracleCalls().stream().map(c -> {
                try {
                    return json.writeValueAsString(Map.of("name", c.name(), "arguments", c.arguments()));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).reduce((a, b) -> a + ", " + b).orElseThrow();
            assertEquals(1.0, reward.score(firstTurn("<think>oracle</think><tool_call>[" + calls + "]</tool_call>"),
                    ToolN1Reward.context(ex)), ex.id());
            assertEquals(0.0, reward.score(firstTurn("<think>lazy</think><answer>I cannot help.</answer>"),
                    ToolN1Reward.context(ex)), ex.id());
        }
    }
}
