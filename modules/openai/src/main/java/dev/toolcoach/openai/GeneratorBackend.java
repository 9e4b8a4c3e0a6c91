package dev.toolcoach.openai;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Serves a local model the way the agent loop drives it: the tools become the action format's
 * system prompt, the conversation is rendered with the model's chat format, tokenised, and handed
 * to the {@link Generator} (the node's inference engine). The engine returns whole replies, so a
 * stream carries the reply as soon as it is complete.
 */
public final class GeneratorBackend implements ChatBackend {

    private static final String JSON_INSTRUCTION = "Reply with one JSON object only, no other text.";

    private final String modelId;
    private final Generator generator;
    private final Tokenizer tokenizer;
    private final ChatFormat chatFormat;
    private final ActionFormat actionFormat;
    private final AtomicLong requests = new AtomicLong();

    public GeneratorBackend(String modelId, Generator generator, Tokenizer tokenizer, ChatFormat chatFormat,
                            ActionFormat actionFormat) {
        this.modelId = modelId;
        this.generator = generator;
        this.tokenizer = tokenizer;
        this.chatFormat = chatFormat;
        this.actionFormat = actionFormat;
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public ActionFormat actionFormat() {
        return actionFormat;
    }

    /** Generation requests served so far. */
    public long requests() {
        return requests.get();
    }

    @Override
    public BackendReply generate(BackendRequest request, Consumer<String> onText) {
        int[] prompt = tokenizer.encode(chatFormat.renderPrompt(conversation(request)));
        String trajectory = "openai-" + requests.incrementAndGet();
        Generation reply;
        try {
            CompletableFuture<Generation> pending = generator.generate(
                    new GenerationRequest(trajectory, prompt, sampling(request.sampling()))).toCompletableFuture();
            if (!pending.isCompletedExceptionally()) onText.accept(""); // accepted: a stream may begin
            reply = pending.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            // a request the model cannot take (its prompt too long) is the client's to fix: a 400, not a server error
            if (cause instanceof IllegalArgumentException refused) throw refused;
            throw new IllegalStateException("the engine failed: " + cause.getMessage(), cause);
        } finally {
            generator.release(trajectory);
        }
        // a stop string ends the reply where it begins; the engine has generated past it (its time is not saved)
        String text = request.sampling().cut(reply.text());
        boolean stopped = text.length() < reply.text().length();
        onText.accept(text);
        return new BackendReply(text, prompt.length, stopped ? tokenizer.encode(text).length : reply.length(),
                !stopped && reply.finishReason().cutOff());
    }

    /**
     * System prompt (client's, then the tools and the action format), then the turns; tool outputs stay one
     * message each where the format sends results in the template's tool role, else are grouped into one
     * message of the chat format.
     */
    List<Message> conversation(BackendRequest request) {
        List<Message> in = request.messages();
        List<String> system = new ArrayList<>();
        int first = 0;
        while (first < in.size() && in.get(first).role().equals("system")) system.add(in.get(first++).content());
        if (!request.tools().isEmpty()) system.add(actionFormat.systemPrompt(toolSpecs(request.tools())));
        if (request.jsonReply()) system.add(JSON_INSTRUCTION);

        List<Message> out = new ArrayList<>();
        if (!system.isEmpty()) out.add(Message.system(String.join("\n\n", system)));
        List<String> pendingOutputs = new ArrayList<>();
        for (Message m : in.subList(first, in.size())) {
            if (m.role().equals("tool") && !actionFormat.resultsInToolRole()) {
                pendingOutputs.add(m.content());
                continue;
            }
            flushToolOutputs(pendingOutputs, out);
            out.add(m);
        }
        flushToolOutputs(pendingOutputs, out);
        return out;
    }

    private void flushToolOutputs(List<String> outputs, List<Message> out) {
        if (outputs.isEmpty()) return;
        out.add(chatFormat.toolResponses(List.copyOf(outputs)));
        outputs.clear();
    }

    /** A tool the model cannot take is refused by its place in the request ({@code tools[i]}), never by its text. */
    private static List<ToolSpec> toolSpecs(List<ToolDefinition> tools) {
        List<ToolSpec> specs = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            FunctionDefinition f = tools.get(i).function();
            try {
                specs.add(new ToolSpec(f.name(), f.description(), f.parameters()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("tools[" + i + "]: " + e.getMessage(), e);
            }
        }
        return specs;
    }

    private static SamplingParams sampling(RequestedSampling s) {
        return new SamplingParams((float) s.temperature(), 0, (float) s.topP(), s.maxTokens(),
                s.seed() == null ? 0L : s.seed());
    }
}
