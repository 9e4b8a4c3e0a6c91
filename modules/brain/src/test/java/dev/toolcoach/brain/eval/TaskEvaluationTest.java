package dev.toolcoach.brain.eval;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Termination;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Evaluation through the real agent loop and finance tools, with scripted replies per example. */
class TaskEvaluationTest {

    @Test
    void scoresEveryExampleOnceWithTheTaskReward() {
        Task task = FinanceTask.create(6, 5L);
        List<TaskExample> examples = task.examples();
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        // the first four get the oracle's turns; the fifth answers a wrong number; the sixth never answers
        Map<String, Generator> replies = new HashMap<>();
        for (int i = 0; i < examples.size(); i++) {
            List<String> script = i < 4 ? examples.get(i).oracleCompletions(ActionFormat.TOOL_N1)
                    : i == 4 ? List.of("<think>guess</think><answer>-1</answer>") : List.of("<think>hm</think>", "<think>hm</think>", "<think>hm</think>");
            replies.put("eval-" + examples.get(i).id(), ReplayGenerator.chatMl(tokenizer, script));
        }
        Generator byExample = request -> replies.get(request.trajectoryId()).generate(request);
        try (ToolExecutor tools = FinanceTools.executor()) {
            EvaluationReport report = new TaskEvaluation(tokenizer, new ChatMlFormat(), byExample, tools,
                    AgentConfig.defaults().withLimits(3, 8192), task.reward()).evaluate(examples);

            assertEquals(6, report.examples());
            assertEquals(4 / 6.0, report.accuracy(), 1e-9);
            assertEquals(4 / 6.0, report.meanReward(), 1e-9);
            assertEquals(Map.of(Termination.ANSWER, 5, Termination.MAX_TURNS, 1), report.terminations());
            assertEquals(examples, report.outcomes().stream().map(EvaluationReport.Outcome::example).toList());
            // the six are three CAGRs and a growth then CAGR (answered by the oracle's turns), a loan payment, a compound interest
            assertEquals(List.of("cagr", "compound_interest", "compound_interest > cagr", "loan_payment"),
                    List.copyOf(report.byOracleRoute().keySet()));
            assertEquals(new EvaluationReport.RouteScore(3, 3, 1.0), report.byOracleRoute().get("cagr"));
            assertEquals(new EvaluationReport.RouteScore(1, 1, 1.0), report.byOracleRoute().get("compound_interest > cagr"));
            assertEquals(new EvaluationReport.RouteScore(1, 0, 0.0), report.byOracleRoute().get("loan_payment"));
            assertEquals(new EvaluationReport.RouteScore(1, 0, 0.0), report.byOracleRoute().get("compound_interest"));
        }
    }
}
