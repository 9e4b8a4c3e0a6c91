package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shaped rewards of real rollouts through the agent loop and the finance tools. */
class CallShapedRewardTest {

    @Test
    void givesFullMarksToTheOracleAndPartialCreditPerCopiedArgument() throws Exception {
        Task task = FinanceTask.create(20, 2L);
        TaskExample example = task.examples().stream()
                .filter(e -> e.solution().size() == 2 && e.solution().get(0).calls().get(0).name().equals("compound_interest"))
                .findFirst().orElseThrow();
        CallShapedReward reward = new CallShapedReward(task.reward(), 0.5);
        ToolCall oracle = example.solution().get(0).calls().get(0);
        Map<String, Object> wrongRate = new LinkedHashMap<>(oracle.arguments());
        wrongRate.put("annual_rate", 0.5);
        String call = "<think>t</think><tool_call>[" + new ObjectMapper().writeValueAsString(
                Map.of("name", oracle.name(), "arguments", wrongRate)) + "]</tool_call>";
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        try (ToolExecutor tools = FinanceTools.executor()) {
            Trace perfect = OracleRollout.run(example, tools, AgentConfig.defaults()).toCompletableFuture().get();
            Trace partial = new AgentLoop(tokenizer, new ChatMlFormat(), ReplayGenerator.chatMl(tokenizer,
                    List.of(call, "<think>t</think><answer>1</answer>")), tools, AgentConfig.defaults())
                    .run(example.rolloutRequest("r", "g")).toCompletableFuture().get();

            assertEquals(1.0, reward.score(example, perfect), 1e-9);
            assertEquals(0.5 * 3 / 4 / 1.5, reward.score(example, partial), 1e-9, "3 of 4 arguments, wrong answer");
            assertEquals(task.reward().score(example, partial), new CallShapedReward(task.reward(), 0).score(example, partial));
        }
    }
}
