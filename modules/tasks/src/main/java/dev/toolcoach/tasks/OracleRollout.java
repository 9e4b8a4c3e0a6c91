package dev.toolcoach.tasks;

import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.trace.Trace;

import java.util.concurrent.CompletionStage;

/**
 * Runs an example through the real agent loop with a model that replays the oracle's completions
 * (byte tokenizer, ChatML): the teacher's demonstration as a full trace, real tools included.
 */
public final class OracleRollout {

    private OracleRollout() {
    }

    public static CompletionStage<Trace> run(TaskExample example, ToolEnvironment tools, AgentConfig config) {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator teacher = ReplayGenerator.chatMl(tokenizer, example.oracleCompletions(config.actionFormat()));
        AgentLoop agent = new AgentLoop(tokenizer, new ChatMlFormat(), teacher,
                CodeActEnvironment.forFormat(config.actionFormat(), tools), config);
        return agent.run(new RolloutRequest(example.id() + "-oracle", example.id(), example.id(), example.query(), example.gold()));
    }
}
