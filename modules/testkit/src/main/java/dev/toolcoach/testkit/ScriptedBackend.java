package dev.toolcoach.testkit;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.openai.BackendReply;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.ChatBackend;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A real {@link ChatBackend} that replays scripted turns in order, standing in for a large teacher
 * or judge model in tests and benches. It streams each reply in small pieces, records every
 * request, and can fail a call or hold it until a gate opens.
 */
public final class ScriptedBackend implements ChatBackend {

    private static final int PIECE_CHARS = 3;

    private final String modelId;
    private final ActionFormat actionFormat;
    private final Deque<Step> script = new ArrayDeque<>();
    private final List<BackendRequest> requests = new ArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    /** One scripted turn: produces the reply text, or throws as a failing model would. */
    private interface Step {
        String produce(BackendRequest request);
    }

    private record Reply(String text) implements Step {
        public String produce(BackendRequest request) {
            return text;
        }
    }

    private record Computed(Function<BackendRequest, String> reply) implements Step {
        public String produce(BackendRequest request) {
            return reply.apply(request);
        }
    }

    private record Fail(String message) implements Step {
        public String produce(BackendRequest request) {
            throw new IllegalStateException(message);
        }
    }

    private record Hold(CountDownLatch gate, String text) implements Step {
        public String produce(BackendRequest request) {
            try {
                if (!gate.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("gate never opened");
                return text;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while held", e);
            }
        }
    }

    /** A scripted model writing Tool-N1 (the format the project's own teachers and judges are asked for). */
    public ScriptedBackend(String modelId) {
        this(modelId, ActionFormat.TOOL_N1);
    }

    /** A scripted model writing {@code actionFormat}, e.g. a native Hermes or Llama 3 model. */
    public ScriptedBackend(String modelId, ActionFormat actionFormat) {
        this.modelId = modelId;
        this.actionFormat = actionFormat;
    }

    public synchronized ScriptedBackend reply(String text) {
        script.add(new Reply(text));
        return this;
    }

    /** A reply computed from the request, e.g. a judge double that reads the prompt it is shown. */
    public synchronized ScriptedBackend replyWith(Function<BackendRequest, String> reply) {
        script.add(new Computed(reply));
        return this;
    }

    public synchronized ScriptedBackend fail(String message) {
        script.add(new Fail(message));
        return this;
    }

    /** A reply given only once {@code gate} opens (a slow model). */
    public synchronized ScriptedBackend hold(CountDownLatch gate, String text) {
        script.add(new Hold(gate, text));
        return this;
    }

    /** Forgets the script and the recorded requests, so one server can serve several tests. */
    public synchronized void reset() {
        script.clear();
        requests.clear();
    }

    public synchronized List<BackendRequest> requests() {
        return List.copyOf(requests);
    }

    public int active() {
        return active.get();
    }

    public int peakConcurrency() {
        return peak.get();
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public ActionFormat actionFormat() {
        return actionFormat;
    }

    @Override
    public BackendReply generate(BackendRequest request, Consumer<String> onText) {
        Step step;
        synchronized (this) {
            requests.add(request);
            step = script.poll();
        }
        if (step == null) throw new IllegalStateException("script exhausted after " + requests.size() + " requests");
        peak.accumulateAndGet(active.incrementAndGet(), Math::max);
        try {
            onText.accept(""); // a scripted model takes every request: a stream begins now
            String text = step.produce(request);
            int pieces = 0;
            for (int i = 0; i < text.length(); i += PIECE_CHARS, pieces++) {
                onText.accept(text.substring(i, Math.min(text.length(), i + PIECE_CHARS)));
            }
            int promptWords = request.messages().stream().mapToInt(m -> m.content().split("\\s+").length).sum();
            return new BackendReply(text, promptWords, pieces, false);
        } finally {
            active.decrementAndGet();
        }
    }
}
