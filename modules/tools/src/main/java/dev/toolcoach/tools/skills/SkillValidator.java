package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolResult;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Validates a composite by replaying, in isolation, every trajectory it was mined from: the composite is called with
 * the arguments that trajectory gave its parameters, in a fresh trajectory with fresh plugin sessions, and each of its
 * steps must give the result the trajectory recorded (status, text, and structured value as JSON). The first
 * difference rejects it, with the reason.
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

    private final Duration replayTimeout;

    public SkillValidator(Duration replayTimeout) {
        this.replayTimeout = replayTimeout;
    }

    public Verdict validate(SkillDefinition definition, CallPattern pattern, ToolSuite suite) {
        CompositeTool composite;
        try {
            composite = new CompositeTool(definition, suite);
        } catch (IllegalArgumentException e) {
            return Verdict.rejected(0, e.getMessage());
        }
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "skill-validation");
            t.setDaemon(true);
            return t;
        });
        try {
            int replayed = 0;
            for (CallPattern.Occurrence occurrence : pattern.occurrences()) {
                String problem = replay(composite, occurrence, replayed, thread);
                if (problem != null) return Verdict.rejected(replayed, "trajectory " + occurrence.trajectoryId() + ": " + problem);
                replayed++;
            }
            return Verdict.accepted(replayed);
        } finally {
            thread.shutdownNow();
        }
    }

    private String replay(CompositeTool composite, CallPattern.Occurrence occurrence, int index, ExecutorService thread) {
        String trajectoryId = "skill-validation-" + composite.name() + "-" + index;
        Map<String, Object> parameters = parameters(composite.definition(), occurrence);
        List<ToolOutput> outputs;
        try (IsolatedSessions sessions = new IsolatedSessions(trajectoryId)) {
            Future<List<ToolOutput>> run = thread.submit(() -> composite.run(new ToolInvocation(trajectoryId, parameters, sessions)));
            try {
                outputs = run.get(replayTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                run.cancel(true);
                return "the composite did not finish within " + replayTimeout.toMillis() + " ms";
            } catch (ExecutionException e) {
                return "the composite failed: " + e.getCause().getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "validation was interrupted";
            }
        }
        for (int k = 0; k < outputs.size(); k++) {
            ToolResult recorded = occurrence.steps().get(k);
            ToolOutput replayed = outputs.get(k);
            String step = "step " + (k + 1) + " (" + recorded.call().name() + ")";
            if (recorded.truncated()) return step + ": the recorded result was cut to the output cap, so it cannot be compared";
            if (!recorded.text().equals(replayed.text())) return step + ": result text differs from the recorded one";
            if (!JsonValues.same(recorded.structured(), replayed.structured())) {
                return step + ": structured result differs from the recorded one";
            }
        }
        return null;
    }

    /** The composite's parameters as the trajectory gave them: each parameter's argument where it is first used. */
    static Map<String, Object> parameters(SkillDefinition definition, CallPattern.Occurrence occurrence) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (int k = 0; k < definition.steps().size(); k++) {
            Map<String, Object> given = occurrence.steps().get(k).call().arguments();
            for (Map.Entry<String, ArgumentSource> entry : definition.steps().get(k).arguments().entrySet()) {
                if (entry.getValue() instanceof ArgumentSource.Parameter p && given.containsKey(entry.getKey())) {
                    parameters.putIfAbsent(p.name(), given.get(entry.getKey()));
                }
            }
        }
        return parameters;
    }
}
