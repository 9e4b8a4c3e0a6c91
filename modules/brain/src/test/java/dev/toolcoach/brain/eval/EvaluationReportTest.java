package dev.toolcoach.brain.eval;

import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EvaluationReportTest {

    private static EvaluationReport.Outcome outcome(String id, List<OracleStep> solution, double reward) {
        // the route reads only the example: the rollout's trace does not matter here
        return new EvaluationReport.Outcome(TaskExample.question(id, "q " + id, "1", solution, Map.of()), null, reward);
    }

    @Test
    void talliesEachOracleRouteInNameOrderWithAnswerOnlyExamplesApart() {
        OracleStep answer = OracleStep.answer("done", "1");
        ToolCall npv = new ToolCall("npv", Map.of("rate", 0.05));
        ToolCall cagr = new ToolCall("cagr", Map.of("years", 2));
        EvaluationReport report = new EvaluationReport(List.of(
                outcome("a", List.of(OracleStep.call("", npv), answer), 1.0),
                outcome("b", List.of(OracleStep.call("", npv), answer), 0.5),
                outcome("c", List.of(answer), 0.0),
                outcome("d", List.of(OracleStep.call("", npv), OracleStep.call("", cagr), answer), 1.0)), 1.0);

        assertEquals(List.of(EvaluationReport.NO_CALL, "npv", "npv > cagr"), List.copyOf(report.byOracleRoute().keySet()));
        assertEquals(new EvaluationReport.RouteScore(2, 1, 0.5), report.byOracleRoute().get("npv"));
        assertEquals(new EvaluationReport.RouteScore(1, 1, 1.0), report.byOracleRoute().get("npv > cagr"));
        assertEquals(new EvaluationReport.RouteScore(1, 0, 0.0), report.byOracleRoute().get(EvaluationReport.NO_CALL));
    }

    @Test
    void examplesWithoutOracleCallsHaveNoRoutes() {
        EvaluationReport report = new EvaluationReport(List.of(outcome("a", List.of(), 1.0),
                outcome("b", List.of(OracleStep.answer("", "1")), 0.0)), 1.0);

        assertEquals(Map.of(), report.byOracleRoute());
    }
}
