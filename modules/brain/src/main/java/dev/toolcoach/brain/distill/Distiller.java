package dev.toolcoach.brain.distill;

import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Knowledge distillation: runs the teacher through the student's agent loop and tools on every
 * example, caches the traces, keeps those that answered with a reward above the threshold, and
 * hands them to the SFT step.
 *
 * <p>The cache key covers the teacher, the dataset (name and content), the student, the tools and
 * the settings, so a second run with the same inputs makes no teacher call at all. Traces are
 * cached only when no rollout failed on a teacher error, so a passing outage is never frozen in.
 */
public final class Distiller {

    private final Student student;
    private final ToolEnvironment tools;
    private final DistillSettings settings;
    private final TraceCache cache;
    private final SftStep sft;
    private final Progress progress;

    /** @param sft the student's training step, or null to only collect and filter (trained tokens stay 0) */
    public Distiller(Student student, ToolEnvironment tools, DistillSettings settings, TraceCache cache, SftStep sft) {
        this(student, tools, settings, cache, sft, Progress.NONE);
    }

    /** @param progress hears the teacher's traces as they are collected */
    public Distiller(Student student, ToolEnvironment tools, DistillSettings settings, TraceCache cache, SftStep sft,
                     Progress progress) {
        this.progress = Objects.requireNonNull(progress, "progress");
        this.student = Objects.requireNonNull(student, "student");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.sft = sft;
    }

    public DistillReport distill(DistillDataset dataset, Teacher teacher) {
        String key = cacheKey(dataset, teacher);
        Optional<List<Trace>> cached = cache.load(key);
        List<Trace> traces = cached.orElseGet(() -> collect(dataset, teacher));
        Map<String, TaskExample> byId = dataset.examples().stream()
                .collect(Collectors.toMap(TaskExample::id, Function.identity(), (a, b) -> a, LinkedHashMap::new));
        Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
        List<ScoredTrace> kept = new ArrayList<>();
        for (Trace t : traces) {
            Optional<SkipReason> skip = unusable(t);
            if (skip.isEmpty()) {
                double reward = reward(t, byId.get(t.queryId()), dataset);
                if (reward > settings.rewardThreshold()) kept.add(new ScoredTrace(t, reward));
                else skip = Optional.of(SkipReason.BELOW_THRESHOLD);
            } else if (t.termination() == Termination.MAX_TURNS) {
                // its replies are whole: one the reward credits is a demonstration (a function-calling example's is
                // its call, the last turn allowed), else it is one that never answered
                double reward = reward(t, byId.get(t.queryId()), dataset);
                if (reward > 0 && reward > settings.rewardThreshold()) {
                    kept.add(new ScoredTrace(t, reward));
                    skip = Optional.empty();
                }
            }
            skip.ifPresent(reason -> skipped.merge(reason, 1, Integer::sum));
        }
        boolean storable = cached.isEmpty() && skipped.getOrDefault(SkipReason.TEACHER_ERROR, 0) == 0;
        if (storable) cache.store(key, traces);
        long trained = sft == null || kept.isEmpty() ? 0 : sft.train(kept);
        return new DistillReport(traces.size(), cached.isPresent(),
                cached.isPresent() || storable ? cache.file(key) : null, kept, skipped, trained);
    }

    private static Optional<SkipReason> unusable(Trace trace) {
        if (trace.termination() == Termination.ERROR) return Optional.of(SkipReason.TEACHER_ERROR);
        if (trace.termination() != Termination.ANSWER || trace.finalAnswer() == null) return Optional.of(SkipReason.NO_ANSWER);
        return Optional.empty();
    }

    private static double reward(Trace trace, TaskExample example, DistillDataset dataset) {
        if (example == null) {
            throw new IllegalStateException("cached trace " + trace.rolloutId() + " belongs to no example of " + dataset.id());
        }
        return dataset.reward().score(example, trace);
    }

    private List<Trace> collect(DistillDataset dataset, Teacher teacher) {
        AgentConfig base = settings.agent();
        String systemPrompt = base.actionFormat().systemPrompt(tools.specs());
        List<Trace> traces = new ArrayList<>();
        try (Progress.Meter meter = progress.start("teacher traces", (long) dataset.examples().size() * settings.tracesPerExample(),
                "traces")) {
            for (TaskExample example : dataset.examples()) {
                for (int i = 0; i < settings.tracesPerExample(); i++) {
                    Generator generator = teacher.generatorFor(example, base.actionFormat(), systemPrompt);
                    AgentLoop loop = new AgentLoop(student.tokenizer(), student.chat(), generator,
                            CodeActEnvironment.forFormat(base.actionFormat(), tools), seeded(base, i));
                    Trace trace = loop.run(rollout(example, teacher, i)).toCompletableFuture().join();
                    teacher.checkUsable();
                    traces.add(trace);
                    meter.step();
                }
            }
        }
        return traces;
    }

    private static AgentConfig seeded(AgentConfig c, int rollout) {
        SamplingParams s = c.sampling();
        SamplingParams sampling = new SamplingParams(s.temperature(), s.topK(), s.topP(), s.maxNewTokens(),
                s.seed() + rollout);
        return new AgentConfig(c.actionFormat(), sampling, c.maxTurns(), c.maxTotalTokens(), c.toolTimeout(),
                c.toolOutputCap());
    }

    private static RolloutRequest rollout(TaskExample example, Teacher teacher, int i) {
        Map<String, Object> metadata = new LinkedHashMap<>(example.gold());
        metadata.put("gold_answer", example.goldAnswer());
        metadata.put("teacher", teacher.id());
        return new RolloutRequest(example.id() + "-teacher-" + i, example.id(), example.id(), example.query(), metadata);
    }

    private String cacheKey(DistillDataset dataset, Teacher teacher) {
        String toolSpecs = tools.specs().stream().map(ToolSpec::toJson).map(Object::toString)
                .collect(Collectors.joining("\n"));
        return TraceCache.key(teacher.id(), dataset.id(), dataset.contentDigest(), student.id(), toolSpecs,
                settings.cacheKeyPart());
    }
}
