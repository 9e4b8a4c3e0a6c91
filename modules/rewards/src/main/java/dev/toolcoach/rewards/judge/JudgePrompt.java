package dev.toolcoach.rewards.judge;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.Turn;

import java.util.List;

/**
 * The one prompt that shows a judge a whole group: the task, then each attempt's thoughts, tool
 * calls with their arguments, shortened tool outputs and final answer, then what to reply.
 */
final class JudgePrompt {

    private final JudgeSettings settings;

    JudgePrompt(JudgeSettings settings) {
        this.settings = settings;
    }

    String render(List<Trace> group, RewardContext example) {
        StringBuilder p = new StringBuilder();
        p.append("You are judging ").append(group.size()).append(" attempts by an AI agent at the same task. ")
                .append("Each attempt shows the agent's thoughts, the tools it called with their arguments, ")
                .append("what the tools returned (long outputs shortened) and its final answer.\n\n");
        p.append("Task: ").append(example.query()).append('\n');
        if (example.goldAnswer() != null) p.append("Reference answer: ").append(example.goldAnswer()).append('\n');
        for (int i = 0; i < group.size(); i++) {
            p.append("\n=== Attempt ").append(i + 1).append(" ===\n");
            attempt(p, group.get(i));
        }
        p.append('\n').append(instructions(group.size()));
        return p.toString();
    }

    private void attempt(StringBuilder p, Trace trace) {
        List<Turn> turns = trace.turns();
        for (int t = 0; t < turns.size(); t++) {
            Turn turn = turns.get(t);
            p.append("Turn ").append(t + 1).append('\n');
            ParsedCompletion parsed = turn.parsedCompletion();
            if (parsed == null) continue;
            if (parsed.thought() != null && !parsed.thought().isBlank()) {
                p.append("  Thought: ").append(parsed.thought().strip()).append('\n');
            }
            if (parsed.parseError() != null) {
                p.append("  Invalid action (").append(parsed.parseError()).append("): ")
                        .append(shorten(turn.modelCompletion())).append('\n');
            }
            for (ToolCall call : parsed.toolCalls()) {
                p.append("  Tool call: ").append(call.name()).append(arguments(call)).append('\n');
            }
            for (ToolResult result : turn.actionOutput()) {
                p.append("  Tool output").append(result.ok() ? "" : " (" + result.status() + ")").append(": ")
                        .append(shorten(result.text())).append('\n');
            }
            if (turn.actionOutput().isEmpty() && turn.toolOutput() != null && !turn.toolOutput().isBlank()) {
                p.append("  Tool output: ").append(shorten(turn.toolOutput())).append('\n');
            }
        }
        if (trace.finalAnswer() != null) p.append("Final answer: ").append(trace.finalAnswer().strip()).append('\n');
        else p.append("Final answer: none (the run ended with ").append(trace.termination()).append(")\n");
    }

    private static String arguments(ToolCall call) {
        try {
            return TraceJson.mapper().writeValueAsString(call.arguments());
        } catch (JsonProcessingException e) {
            return call.arguments().toString();
        }
    }

    private String shorten(String text) {
        String s = text == null ? "" : text.strip();
        int max = settings.toolOutputChars();
        return s.length() <= max ? s : s.substring(0, max) + " ... [" + (s.length() - max) + " more characters]";
    }

    private String instructions(int n) {
        String criteria = "Judge by correctness of the final answer first, then by correct tool use (the right "
                + "tools, the right arguments, results actually used), then by efficiency.\n";
        if (settings.mode() == JudgeMode.RANKING) {
            return "Rank every attempt from best to worst. " + criteria
                    + "Reply with JSON only: {\"ranking\": [best, ..., worst]} using the attempt numbers 1 to " + n
                    + ", each exactly once. Put equally good attempts together in a nested list, e.g. "
                    + "{\"ranking\": [2, [1, 3], 4]}.";
        }
        return "Score every attempt from 0 to 1 relative to the others (the best should be near 1, a failed one "
                + "near 0). " + criteria + "Reply with JSON only: {\"scores\": [{\"attempt\": 1, \"explanation\": "
                + "\"...\", \"score\": 0.8}, ...]} with every attempt number from 1 to " + n + " exactly once.";
    }
}
