package dev.toolcoach.tools.skills;

import dev.toolcoach.agent.OutputCap;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replays recorded trajectories in isolation (a fresh trajectory id and fresh plugin sessions per replay, each replay
 * bounded by a timeout) against the real tools, and compares what they give with what was recorded (status, text,
 * and structured value as JSON), after the same output caps the recorded results went through.
 * <ul>
 *   <li>{@link #reobserve}: the recorded calls themselves, one by one. Recorded results were cut to the agent's output
 *       cap (a long structured result is then replaced by text), which hides the data flow; the replay gives the whole
 *       results to read it from, and proves they are what the trajectory saw.</li>
 *   <li>{@link #validate}: the composite, called with the arguments each trajectory gave its parameters; each of its
 *       steps must reproduce that trajectory's recorded result. The first difference rejects it, with the reason.</li>
 * </ul>
 */
public final class SkillValidator {

    /** The outcome: accepted after {@code replayed} replays, or rejected with the reason. */
    public record Verdict(boolean accepted, int replayed, String reason) {
        static Verdict accepted(int replayed) {
            return new Verdict(true, replayed, null);
        }

        static Verdict rejected(int replayed, String reason) {
            return new Verdict(false, replayed, reason);
        }
    }

    /** The pattern with each step's whole result, or why its trajectories could not be reproduced. */
    public record Reobserved(CallPattern pattern, String reason) {
    }

    private interface Replay {
        List<ToolOutput> run(ToolInvocation invocation) throws Exception;
    }

    private final Duration replayTimeout;
    private final List<OutputCap> caps;

    /**
     * @param caps the output caps the recorded results went through, in order (the tool executor's, then the agent's):
     *             a replay is cut the same way, since a result cut twice differs from one cut once to the smaller cap
     */
    public SkillValidator(Duration replayTimeout, List<OutputCap> caps) {
        this.replayTimeout = replayTimeout;
        this.caps = List.copyOf(caps);
    }

    public Reobserved reobserve(CallPattern recorded, ToolSuite suite) {
        List<Tool> tools = new ArrayList<>();
        for (String name : recorded.tools()) {
            Tool tool = suite.tool(name).orElse(null);
            if (tool == null) return new Reobserved(null, "tool '" + name + "' is not in suite '" + suite.name() + "'");
            tools.add(tool);
        }
        List<CallPattern.Occurrence> whole = new ArrayList<>();
        for (CallPattern.Occurrence occurrence : recorded.occurrences()) {
            List<ToolOutput> outputs = new ArrayList<>();
            String problem = replay("skill-reobserve-" + whole.size(), occurrence, invocation -> {
                List<ToolOutput> done = new ArrayList<>();
                for (int k = 0; k < tools.size(); k++) {
                    Map<String, Object> arguments = occurrence.steps().get(k).call().arguments();
                    done.add(tools.get(k).call(new ToolInvocation(invocation.trajectoryId(), arguments, invocation.sessions())));
                }
                return done;
            }, outputs);
            if (problem != null) return new Reobserved(null, "trajectory " + occurrence.trajectoryId() + ": " + problem);
            List<ToolResult> steps = new ArrayList<>();
            for (int k = 0; k < outputs.size(); k++) {
                ToolCall call = occurrence.steps().get(k).call();
                steps.add(ToolResult.ok(call, outputs.get(k).text(), outputs.get(k).structured(), 0, false));
            }
            whole.add(new CallPattern.Occurrence(occurrence.trajectoryId(), occurrence.start(), steps));
        }
        return new Reobserved(new CallPattern(recorded.tools(), whole), null);
    }

    public Verdict validate(SkillDefinition definition, CallPattern recorded, ToolSuite suite) {
        CompositeTool composite;
        try {
            composite = new CompositeTool(definition, suite);
        } catch (IllegalArgumentException e) {
            return Verdict.rejected(0, e.getMessage());
        }
        int replayed = 0;
        for (CallPattern.Occurrence occurrence : recorded.occurrences()) {
            Map<String, Object> parameters = SkillPlans.replace(occurrence.steps().stream().map(ToolResult::call).toList(), definition)
                    .orElseThrow().arguments();
            String problem = replay("skill-validation-" + composite.name() + "-" + replayed, occurrence,
                    invocation -> composite.run(new ToolInvocation(invocation.trajectoryId(), parameters, invocation.sessions())),
                    new ArrayList<>());
            if (problem != null) return Verdict.rejected(replayed, "trajectory " + occurrence.trajectoryId() + ": " + problem);
            replayed++;
        }
        return Verdict.accepted(replayed);
    }

    /** Runs one replay in isolation and compares it with the occurrence; null when it reproduced it, else the problem. */
    private String replay(String trajectoryId, CallPattern.Occurrence occurrence, Replay replay, List<ToolOutput> outputs) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "skill-replay");
            t.setDaemon(true);
            return t;
        });
        try (IsolatedSessions sessions = new IsolatedSessions(trajectoryId)) {
            Future<List<ToolOutput>> run = thread.submit(() -> replay.run(new ToolInvocation(trajectoryId, Map.of(), sessions)));
            try {
                outputs.addAll(run.get(replayTimeout.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                run.cancel(true);
                return "the replay did not finish within " + replayTimeout.toMillis() + " ms";
            } catch (ExecutionException e) {
                return "the replay failed: " + e.getCause().getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "the replay was interrupted";
            }
        } finally {
            thread.shutdownNow();
        }
        for (int k = 0; k < outputs.size(); k++) {
            ToolResult recorded = occurrence.steps().get(k);
            ToolResult replayed = ToolResult.ok(recorded.call(), outputs.get(k).text(), outputs.get(k).structured(), 0, false);
            for (OutputCap cap : caps) replayed = cap.apply(replayed);
            String step = "step " + (k + 1) + " (" + recorded.call().name() + ")";
            if (!recorded.text().equals(replayed.text())) return step + ": result text differs from the recorded one";
            if (!JsonValues.same(recorded.structured(), replayed.structured())) {
                return step + ": structured result differs from the recorded one";
            }
        }
        return null;
    }
}
