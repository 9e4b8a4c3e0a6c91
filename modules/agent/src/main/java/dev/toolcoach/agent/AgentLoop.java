package dev.toolcoach.agent;

import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.trace.Trace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Runs agents: think, call tools, observe, until an answer or a limit. Talks to the model through
 * {@link Tokenizer}, {@link ChatFormat} and {@link Generator}, and to tools through
 * {@link ToolEnvironment}, so the same loop runs in-process and over the cluster.
 *
 * <p>Thread-safe: each {@link #run} has its own state, so one loop may serve many rollouts at once.
 */
public final class AgentLoop {

    private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

    private final Tokenizer tokenizer;
    private final ChatFormat chat;
    private final Generator generator;
    private final ToolEnvironment tools;
    private final AgentConfig config;
    private final ToolRunner toolRunner;
    /** What a rollout that names no tools of its own is offered: every tool of the environment. */
    private final Offer everyTool;
    private final Optional<ConversationTemplate> nativeTemplate;
    private final Executor executor;

    /** A loop whose own work (parsing, tokenising observations) runs on the common fork-join pool. */
    public AgentLoop(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools, AgentConfig config) {
        this(tokenizer, chat, generator, tools, config, ForkJoinPool.commonPool());
    }

    /**
     * A loop whose own work runs on {@code executor}, never on the thread that completed a model or
     * tool stage: that may be an engine's decode thread or the JDK's timeout timer, and neither
     * should wait for the next turn.
     */
    public AgentLoop(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools, AgentConfig config,
                     Executor executor) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.chat = Objects.requireNonNull(chat, "chat");
        this.generator = Objects.requireNonNull(generator, "generator");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.config = Objects.requireNonNull(config, "config");
        this.toolRunner = new ToolRunner(tools, config.toolTimeout(), new OutputCap(config.toolOutputCap()));
        // a native format renders through the model's own template when the chat format has one; else its
        // system prompt lists the tools and its pieces are appended as for any other format
        this.nativeTemplate = config.actionFormat().templateSystemPrompt().isPresent() ? chat.template() : Optional.empty();
        if (nativeTemplate.isEmpty() && !chat.appendsTurns()) {
            throw new IllegalArgumentException("the model's chat template rewrites an assistant reply, so the "
                    + config.actionFormat().formatName() + " format's pieces cannot be appended to what the model saw;"
                    + " use a native format (" + nativeFormatNames() + "), which the template renders whole");
        }
        this.everyTool = offer(tools.specs());
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    private static String nativeFormatNames() {
        return Arrays.stream(ActionFormat.values()).filter(f -> f.templateSystemPrompt().isPresent())
                .map(ActionFormat::formatName).collect(Collectors.joining(", "));
    }

    /**
     * The tools one rollout is offered, with the system prompt that lists them (or the template's short one) and the
     * parser that accepts calls to them only.
     */
    record Offer(List<ToolSpec> tools, String systemPrompt, ActionParser parser) {
    }

    private Offer offer(List<ToolSpec> specs) {
        List<ToolSpec> offered = List.copyOf(specs);
        String prompt = nativeTemplate.isPresent() ? config.actionFormat().templateSystemMessage(offered)
                : config.actionFormat().systemPrompt(offered);
        return new Offer(offered, prompt, new ActionParser(config.actionFormat(), offered));
    }

    /** What {@code request} offers: its own tools when it names any, else every tool of the environment. */
    Offer offerFor(RolloutRequest request) {
        return request.tools().isEmpty() ? everyTool : offer(request.tools());
    }

    /** The system prompt of one rollout: its offer's, ending with the tool environment's hint when it gives one. */
    String systemPrompt(Offer offer, String rolloutId) {
        return tools.promptHint(rolloutId, offer.tools())
                .map(hint -> offer.systemPrompt().isEmpty() ? hint : offer.systemPrompt() + "\n\n" + hint)
                .orElse(offer.systemPrompt());
    }

    /** The system prompt a run that names no tools of its own starts with. */
    public String systemPrompt() {
        return everyTool.systemPrompt();
    }

    /** The parser of a run that names no tools of its own. */
    public ActionParser parser() {
        return everyTool.parser();
    }

    /**
     * Runs one rollout. The stage always completes with a trace: an engine failure or a broken
     * component ends the run with termination ERROR and everything recorded up to that point.
     */
    public CompletionStage<Trace> run(RolloutRequest request) {
        return play(new Episode(request, this)).whenComplete((trace, e) -> release(request.rolloutId()));
    }

    /**
     * Runs one rollout that may take at most {@code timeLimit} from now, as {@link #run(RolloutRequest)} does. Still
     * running then, it is stopped: no new turn or tool call starts, its trajectory is released at once (so the tool
     * environment cancels its calls and the generator drops its state), and the stage fails with a
     * {@link TimeoutException} instead of yielding a trace, since a trace cut off mid-run is not one to learn from.
     * The trajectory is released exactly once, whichever comes first.
     */
    public CompletionStage<Trace> run(RolloutRequest request, Duration timeLimit) {
        Episode episode = new Episode(request, this);
        AtomicBoolean over = new AtomicBoolean();
        CompletableFuture<Trace> result = new CompletableFuture<>();
        // a timer of its own, cancelled when the run ends first, so an ended run is not held until its limit
        CompletableFuture<Void> limit = new CompletableFuture<Void>()
                .orTimeout(timeLimit.toMillis(), TimeUnit.MILLISECONDS);
        limit.whenCompleteAsync((ignored, passed) -> {
            if (passed == null || !over.compareAndSet(false, true)) return;
            episode.stop();
            release(request.rolloutId());
            result.completeExceptionally(new TimeoutException("rollout " + request.rolloutId()
                    + " was still running after " + timeLimit.toMillis() + " ms"));
        }, executor);
        play(episode).whenComplete((trace, e) -> {
            limit.complete(null);
            if (!over.compareAndSet(false, true)) return; // stopped: released then, and the trace is not wanted
            release(request.rolloutId());
            result.complete(trace);
        });
        return result;
    }

    /** Whether a {@link #run(RolloutRequest, Duration)} stage failed because the rollout was stopped at its limit. */
    public static boolean stoppedAtLimit(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof TimeoutException;
    }

    /** The episode's turns, from its prompt to its trace (an ERROR trace when something broke). */
    private CompletionStage<Trace> play(Episode episode) {
        return CompletableFuture.completedFuture(null)
                .thenComposeAsync(ignored -> episode.start(), executor)
                .exceptionally(episode::failed);
    }

    /** Best effort: a failing release must not cost the trace, so it is only logged. */
    private void release(String trajectoryId) {
        try {
            generator.release(trajectoryId);
        } catch (RuntimeException e) {
            LOG.warn("generator could not release trajectory {}: {}", trajectoryId, e.toString());
        }
        try {
            tools.release(trajectoryId).whenComplete((done, e) -> {
                if (e != null) LOG.warn("tools could not release trajectory {}: {}", trajectoryId, e.toString());
            });
        } catch (RuntimeException e) {
            LOG.warn("tools could not release trajectory {}: {}", trajectoryId, e.toString());
        }
    }

    /** The model's template when the action format is native and the chat format has one. */
    Optional<ConversationTemplate> nativeTemplate() {
        return nativeTemplate;
    }

    Tokenizer tokenizer() {
        return tokenizer;
    }

    ChatFormat chat() {
        return chat;
    }

    Generator generator() {
        return generator;
    }

    AgentConfig config() {
        return config;
    }

    Executor executor() {
        return executor;
    }

    ToolRunner toolRunner() {
        return toolRunner;
    }
}
