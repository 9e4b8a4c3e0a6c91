package dev.toolcoach.agent;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The state of one run of the agent loop. Turns happen one after another (each waits for the
 * previous stage), so this mutable state is only ever touched by one thread at a time.
 *
 * <p>The context grows only by appending: the rendered prompt once, then per turn exactly the
 * generated ids and the observation's ids, the observation tokenised on its own.
 *
 * <p>With a native action format the model's own template renders the whole conversation (tools offered,
 * the reply with its parsed calls, the results as tool messages) and what the new rendering adds to the text
 * the model saw is appended. When the rendering no longer starts with that text (the template rewrote an
 * earlier turn, e.g. dropped its thinking), the run goes on in a new context holding the new rendering, so
 * every generated token is recorded with exactly the context it was generated in.
 */
final class Episode {

    private final RolloutRequest request;
    private final AgentLoop agent;
    private final AgentConfig config;
    /** The loop's sampling with this rollout's seed. */
    private final SamplingParams sampling;
    private final TokenLedger ledger = new TokenLedger();
    /** The tools this rollout is offered, their system prompt and parser. */
    private final AgentLoop.Offer offer;
    /** The model's template for a native format, else null (the format's pieces are appended). */
    private final ConversationTemplate template;
    private final StringBuilder contextText = new StringBuilder();
    private final List<Message> conversation = new ArrayList<>();
    private final List<Turn> turns = new ArrayList<>();
    private final List<Long> generateMillis = new ArrayList<>();
    private final List<Long> toolMillis = new ArrayList<>();
    private final long startedAtMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    /** The reply being acted on; kept so a failure while acting still records it as a turn. */
    private PendingTurn pending;
    /** Set from another thread when the run's time limit passed: no new generation or tool call may start. */
    private volatile boolean stopped;

    Episode(RolloutRequest request, AgentLoop agent) {
        this.request = request;
        this.agent = agent;
        this.config = agent.config();
        this.sampling = request.seed().isPresent() ? config.sampling().withSeed(request.seed().getAsLong()) : config.sampling();
        this.template = agent.nativeTemplate().orElse(null);
        this.offer = agent.offerFor(request);
    }

    CompletionStage<Trace> start() {
        conversation.add(Message.system(agent.systemPrompt(offer, request.rolloutId())));
        conversation.add(Message.user(request.query()));
        String prompt = template == null ? agent.chat().renderPrompt(conversation)
                : template.render(conversation, offer.tools(), true);
        ledger.appendPrompt(agent.tokenizer().encode(prompt));
        contextText.append(prompt);
        return nextTurn();
    }

    /** Stops the run: the stage in flight may still complete, but nothing new starts after it. */
    void stop() {
        stopped = true;
    }

    /** Ends the run on an unexpected failure, keeping everything recorded so far. */
    Trace failed(Throwable e) {
        if (pending != null) record(pending, null, List.of());
        return finish(Termination.ERROR, null, ToolRunner.describe(e));
    }

    private CompletionStage<Trace> nextTurn() {
        if (stopped) {
            return cutOff();
        }
        if (turns.size() >= config.maxTurns()) {
            return done(Termination.MAX_TURNS, null);
        }
        int room = config.maxTotalTokens() - ledger.contextLength();
        if (room <= 0) {
            return done(Termination.MAX_TOKENS, null);
        }
        int maxNew = Math.min(sampling.maxNewTokens(), room);
        GenerationRequest generation = new GenerationRequest(request.rolloutId(), ledger.contextIds(),
                sampling.withMaxNewTokens(maxNew));
        String prompt = contextText.toString();
        long t0 = System.nanoTime();
        return agent.generator().generate(generation)
                .thenComposeAsync(reply -> afterReply(prompt, reply, maxNew, t0), agent.executor());
    }

    private CompletionStage<Trace> afterReply(String prompt, Generation reply, int maxNew, long t0) {
        generateMillis.add(millisSince(t0));
        if (reply.length() > maxNew) {
            throw new IllegalStateException("the generator returned " + reply.length()
                    + " tokens when at most " + maxNew + " were asked for");
        }
        int turnStart = ledger.length();
        ledger.appendGenerated(reply);
        contextText.append(agent.tokenizer().decode(reply.tokenIds()));
        ParsedCompletion parsed = offer.parser().parse(reply.text());
        // for the template, calls it can render go as tool_calls beside the rest of the text; anything else as written
        conversation.add(template == null || parsed.toolCalls().isEmpty() ? Message.assistant(reply.text())
                : Message.assistantCalls(config.actionFormat().codec().contentBesideCalls(reply.text()), parsed.toolCalls()));
        PendingTurn turn = new PendingTurn(prompt, reply, parsed, turnStart);
        pending = turn;
        if (parsed.valid() && parsed.finalAnswer() != null) {
            record(turn, null, List.of());
            return done(Termination.ANSWER, parsed.finalAnswer());
        }
        if (ledger.contextLength() >= config.maxTotalTokens()) {
            record(turn, null, List.of()); // no room to show the model anything, so nothing is run
            return done(Termination.MAX_TOKENS, null);
        }
        if (!parsed.valid()) {
            String feedback = "Error: your reply could not be used (" + parsed.parseError() + "). "
                    + config.actionFormat().reminder();
            return observe(turn, List.of(feedback), List.of());
        }
        if (stopped) {
            return cutOff();
        }
        long toolsStart = System.nanoTime();
        return agent.toolRunner().run(request.rolloutId(), parsed.toolCalls())
                .thenComposeAsync(results -> {
                    toolMillis.add(millisSince(toolsStart));
                    return observe(turn, results.stream().map(ToolResult::text).toList(), results);
                }, agent.executor());
    }

    private CompletionStage<Trace> observe(PendingTurn turn, List<String> outputs, List<ToolResult> results) {
        return template == null ? appendObservation(turn, outputs, results) : renderObservation(turn, outputs, results);
    }

    private CompletionStage<Trace> appendObservation(PendingTurn turn, List<String> outputs, List<ToolResult> results) {
        Message observation = agent.chat().toolResponses(outputs);
        conversation.add(observation);
        String text = agent.chat().closeReply(turn.reply.finishReason() == FinishReason.STOP_TOKEN)
                + agent.chat().renderMessage(observation) + agent.chat().generationPrefix();
        int[] ids = agent.tokenizer().encode(text);
        if (ledger.contextLength() + ids.length > config.maxTotalTokens()) {
            // the model would never see it, so it is recorded as text but not as tokens to train on
            record(turn, observation.content(), results);
            return done(Termination.MAX_TOKENS, null);
        }
        ledger.appendObserved(ids);
        contextText.append(text);
        record(turn, observation.content(), results);
        return nextTurn();
    }

    /**
     * Results go back as tool messages naming their tool (feedback on an unusable reply as a user message), and
     * the template renders the whole conversation again.
     */
    private CompletionStage<Trace> renderObservation(PendingTurn turn, List<String> outputs, List<ToolResult> results) {
        if (results.isEmpty()) {
            outputs.forEach(o -> conversation.add(Message.user(o)));
        } else {
            results.forEach(r -> conversation.add(Message.toolResult(r.call().name(), r.text())));
        }
        String toolOutput = String.join("\n", outputs);
        String next = template.render(conversation, offer.tools(), true);
        String seen = contextText.toString();
        boolean appendOnly = next.startsWith(seen);
        int[] ids = agent.tokenizer().encode(appendOnly ? next.substring(seen.length()) : next);
        if ((appendOnly ? ledger.contextLength() : 0) + ids.length > config.maxTotalTokens()) {
            record(turn, toolOutput, results); // the model would never see it
            return done(Termination.MAX_TOKENS, null);
        }
        if (appendOnly) {
            ledger.appendObserved(ids);
            record(turn, toolOutput, results);
        } else {
            record(turn, toolOutput, results); // the turn ends with the context it was generated in
            if (turns.size() >= config.maxTurns()) {
                return done(Termination.MAX_TURNS, null); // a context the model would never generate in
            }
            ledger.startContext(ids);
        }
        contextText.setLength(0);
        contextText.append(next);
        return nextTurn();
    }

    /** A stopped run ends here: the loop has already answered for it, so what this yields is dropped. */
    private static CompletionStage<Trace> cutOff() {
        return CompletableFuture.failedFuture(new CancellationException("the rollout was stopped"));
    }

    private void record(PendingTurn turn, String toolOutput, List<ToolResult> results) {
        turns.add(new Turn(turn.prompt, turn.reply.text(), turn.parsed, toolOutput, results,
                List.copyOf(conversation), turn.tokenStart, ledger.length()));
        pending = null;
    }

    private CompletionStage<Trace> done(Termination termination, String answer) {
        return CompletableFuture.completedFuture(finish(termination, answer, null));
    }

    private Trace finish(Termination termination, String answer, String error) {
        Map<String, Object> metadata = new LinkedHashMap<>(request.metadata());
        metadata.put("generate_millis", List.copyOf(generateMillis));
        metadata.put("tool_millis", List.copyOf(toolMillis));
        return new Trace(request.rolloutId(), request.groupId(), request.queryId(), request.query(), turns,
                ledger.toRecord(), answer, termination, error, startedAtMillis, millisSince(startNanos), metadata,
                offer.tools().stream().map(ToolSpec::name).toList());
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** A reply waiting for its observation before it becomes a {@link Turn}. */
    private record PendingTurn(String prompt, Generation reply, ParsedCompletion parsed, int tokenStart) {
    }
}
