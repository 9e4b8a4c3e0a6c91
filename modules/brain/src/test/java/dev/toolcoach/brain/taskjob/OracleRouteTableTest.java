package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.eval.EvaluationReport.RouteScore;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OracleRouteTableTest {

    private static EvalRecord record(Map<String, RouteScore> routes) {
        return new EvalRecord(3, 1, 1 / 3.0, EvalRecord.wilson(1, 3), 0, Map.of(), null, null, null, null, null, null, routes);
    }

    @Test
    void aRowPerRouteAndAColumnPerEvaluationInTheirOrder() {
        Map<String, EvalRecord> evaluations = new LinkedHashMap<>();
        evaluations.put("after_warmup", record(new TreeMap<>(Map.of("npv", new RouteScore(2, 0, 0.0), "cagr", new RouteScore(1, 1, 1.0)))));
        evaluations.put("after_grpo", record(new TreeMap<>(Map.of("npv", new RouteScore(2, 1, 0.5),
                "compound_interest > cagr", new RouteScore(4, 3, 0.75)))));

        assertEquals(List.of(
                "oracle's calls                 after_warmup         after_grpo",
                "cagr                           100.0% (1/1)                  -",
                "compound_interest > cagr                  -        75.0% (3/4)",
                "npv                              0.0% (0/2)        50.0% (1/2)"), OracleRouteTable.lines(evaluations));
    }

    @Test
    void nothingWithoutRoutes() {
        assertEquals(List.of(), OracleRouteTable.lines(Map.of("after_grpo", record(null))));
    }
}
