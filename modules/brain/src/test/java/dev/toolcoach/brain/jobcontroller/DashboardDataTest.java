package dev.toolcoach.brain.jobcontroller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.run.ToolCallStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DashboardDataTest {

    @Test
    void sumsEachToolOverTheStepsAndKeepsTheLargestLag() throws Exception {
        List<StepLine> steps = List.of(
                new StepLine(1, 1, 2, 0, 0.5, 0.25, 0.75, 0.625, 3.0, 10, 2, 1.0, null, 0.5, 1,
                        Map.of("add", new ToolCallStats(3, 1, 30, 6), "search", new ToolCallStats(1, 0, 5, 1)), 0.1),
                new StepLine(2, 2, 2, 0, Double.NaN, 0.5, Double.NaN, 0.5, 4.0, 20, 4, 0.5, null, 1.5, 3, Map.of("add", new ToolCallStats(2, 0, 10, 4)), 0.2));
        DashboardData data = DashboardData.of(null, steps, null, null,
                List.of(new DashboardData.Node("akka://ToolCoach@127.0.0.1:1", List.of("athlete"), "Up", 4)));
        assertEquals(Map.of("add", new ToolCallStats(5, 1, 40, 10), "search", new ToolCallStats(1, 0, 5, 1)), data.tools());
        assertEquals(3, data.maxPolicyLag());

        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(data));
        assertEquals(8.0, json.get("tools").get("add").get("mean_latency_millis").asDouble());
        assertEquals(2.0, json.get("tools").get("add").get("mean_cpu_millis").asDouble());
        assertEquals("NaN", json.get("steps").get(1).get("mean_reward").asText(), "a step without reward stays valid JSON");
        assertEquals(3, json.get("max_policy_lag").asInt());
        assertTrue(json.get("job").isNull());
    }
}
