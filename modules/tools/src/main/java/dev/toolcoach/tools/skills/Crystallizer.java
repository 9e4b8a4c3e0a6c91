package dev.toolcoach.tools.skills;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.OutputCap;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.Trace;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CRYSTALLIZE: successful traces → frequent call sequences ({@link SequenceMiner}) → their calls replayed for whole
 * results ({@link SkillValidator#reobserve}) → parameterised composites with the data flow read off those
 * ({@link SkillAbstraction}) → validation of the composite by isolated replay ({@link SkillValidator#validate}) → the
 * skill library, pending a
 * person's approval or approved at once. Every pattern found ends either as a saved skill or as a counted rejection
 * with its reason.
 */
public final class Crystallizer {

    /**
     * @param minLength     fewest calls in a pattern (TILE says 3; the email and finance tasks' recipes are 2 long)
     * @param maxLength     most calls in a pattern
     * @param minSupport    fewest successful trajectories that must hold it
     * @param minReward     the recorded reward at which a trace counts as successful
     * @param autoApprove   approve validated skills at once (else they wait for {@code skills approve})
     * @param replayTimeout longest one validation replay may take
     * @param outputCaps    the output caps the traces' results went through, in order: the tool executor's, then the
     *                      agent's (validation cuts its replays the same way)
     */
    public record Settings(int minLength, int maxLength, int minSupport, double minReward, boolean autoApprove,
                           Duration replayTimeout, List<Integer> outputCaps) {
        public Settings {
            new SequenceMiner(minLength, maxLength, minSupport); // checks the three
            outputCaps = List.copyOf(outputCaps);
        }

        public static Settings defaults() {
            return new Settings(3, 6, 3, 1.0, false, Duration.ofSeconds(10),
                    List.of(ExecutorSettings.defaults().outputCapChars(), AgentConfig.TOOL_OUTPUT_CAP));
        }

        public Settings withMinLength(int n) {
            return new Settings(n, Math.max(n, maxLength), minSupport, minReward, autoApprove, replayTimeout, outputCaps);
        }
    }

    /** A pattern that did not become a skill, and why. */
    public record Rejection(List<String> tools, int support, String reason) {
    }

    /**
     * @param traces     traces read
     * @param successful of which counted as successful (the ones mined)
     * @param accepted   the skills saved (pending or approved)
     * @param rejected   the patterns refused, each with its reason
     */
    public record Report(int traces, int successful, List<SkillDefinition> accepted, List<Rejection> rejected) {
        public int patterns() {
            return accepted.size() + rejected.size();
        }
    }

    private final Settings settings;

    public Crystallizer(Settings settings) {
        this.settings = settings;
    }

    public Report crystallize(List<Trace> traces, ToolSuite suite, SkillLibrary library, String source) throws IOException {
        List<SkillTrajectory> successful = traces.stream().filter(t -> SkillTrajectory.succeeded(t, settings.minReward()))
                .map(SkillTrajectory::of).toList();
        List<CallPattern> patterns = new SequenceMiner(settings.minLength(), settings.maxLength(), settings.minSupport()).mine(successful);
        List<SkillDefinition> known = new ArrayList<>(library.all());
        Set<String> taken = new HashSet<>(suite.toolNames());
        known.forEach(k -> taken.add(k.name()));
        SkillValidator validator = new SkillValidator(settings.replayTimeout(),
                settings.outputCaps().stream().map(OutputCap::new).toList());
        List<SkillDefinition> accepted = new ArrayList<>();
        List<Rejection> rejected = new ArrayList<>();
        for (CallPattern pattern : patterns) {
            double novelty = Novelty.score(pattern.tools(), known.stream().filter(k -> k.suite().equals(suite.name()))
                    .map(SkillDefinition::tools).toList());
            if (novelty == 0) {
                rejected.add(new Rejection(pattern.tools(), pattern.support(), "a known skill already makes these calls"));
                continue;
            }
            // the data flow is read off the whole results, which the recorded ones may be cut from
            SkillValidator.Reobserved whole = validator.reobserve(pattern, suite);
            if (whole.pattern() == null) {
                rejected.add(new Rejection(pattern.tools(), pattern.support(), "replay failed: " + whole.reason()));
                continue;
            }
            SkillDefinition candidate = SkillAbstraction.abstractPattern(whole.pattern(), suite, taken, source, novelty,
                    settings.minLength(), settings.minSupport());
            SkillValidator.Verdict verdict = validator.validate(candidate, pattern, suite);
            if (!verdict.accepted()) {
                rejected.add(new Rejection(pattern.tools(), pattern.support(), "validation failed: " + verdict.reason()));
                continue;
            }
            SkillDefinition.Provenance p = candidate.provenance();
            SkillDefinition skill = candidate.withProvenance(new SkillDefinition.Provenance(p.source(), p.trajectories(), p.support(),
                    p.novelty(), p.minLength(), p.minSupport(), verdict.replayed(), p.createdAt()));
            if (settings.autoApprove()) skill = skill.withStatus(SkillDefinition.Status.APPROVED);
            library.save(skill);
            accepted.add(skill);
            known.add(skill);
            taken.add(skill.name());
        }
        return new Report(traces.size(), successful.size(), accepted, rejected);
    }
}
