package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.ChatToolCall;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.openai.ToolDefinition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The teacher endpoint behind the agent's {@link Generator} interface, for one rollout. It keeps
 * the chat as OpenAI messages: the context tokens appended since
 * the last reply are the tool outputs, read back with the student's chat format; the teacher's reply
 * becomes action text, encoded with the student's tokenizer and closed with its stop token. Teacher
 * tokens carry behaviour log-prob 0 and policy version 0: they were not sampled from the student.
 */
final class TeacherGenerator implements Generator {

    private final OpenAiClient client;
    private final Student student;
    private final List<ToolDefinition> tools;
    private final ActionFormat format;
    private final String systemPrompt;
    private final String query;
    private final Consumer<OpenAiException> onFailure;
    private final ObservationText observations;
    private final List<ChatMessage> messages = new ArrayList<>();
    /** The context already reflected in {@link #messages}: the last request's context and the reply to it. */
    private int[] consumed = new int[0];
    private boolean lastEndedByStop;
    private List<ChatToolCall> lastCalls = List.of();

    /** @param format the student's action format, which the teacher's replies are written in */
    TeacherGenerator(OpenAiClient client, Student student, List<ToolDefinition> tools, ActionFormat format, String systemPrompt,
                     String query, Consumer<OpenAiException> onFailure) {
        this.client = client;
        this.student = student;
        this.tools = tools;
        this.format = format;
        this.systemPrompt = systemPrompt;
        this.query = query;
        this.onFailure = onFailure;
        this.observations = new ObservationText(student.chat());
    }

    @Override
    public synchronized CompletionStage<Generation> generate(GenerationRequest request) {
        int[] context = request.context();
        if (messages.isEmpty()) {
            messages.add(ChatMessage.system(systemPrompt));
            messages.add(ChatMessage.user(query));
        } else {
            if (context.length < consumed.length || !Arrays.equals(consumed, 0, consumed.length, context, 0, consumed.length)) {
                return CompletableFuture.failedFuture(new IllegalStateException("the student's chat template rewrote an"
                        + " earlier turn, so the rollout went on in a new context; a teacher's tool outputs are read from"
                        + " the tokens appended after its reply, so distil with an action format the template appends to"));
            }
            addObservation(Arrays.copyOfRange(context, consumed.length, context.length));
        }
        ChatMessage reply;
        try {
            reply = client.chat(ChatRequest.of(messages).withTools(tools)
                    .withTemperature(request.sampling().temperature())
                    .withMaxTokens(request.sampling().maxNewTokens())
                    .withSeed(request.sampling().seed())).message();
        } catch (OpenAiException e) {
            onFailure.accept(e);
            return CompletableFuture.failedFuture(e);
        }
        messages.add(reply);
        lastCalls = reply.calls();
        Generation generation = asStudentTurn(ActionText.of(reply, format), request.sampling().maxNewTokens());
        lastEndedByStop = generation.finishReason() == FinishReason.STOP_TOKEN;
        consumed = Arrays.copyOf(context, context.length + generation.length());
        System.arraycopy(generation.tokenIds(), 0, consumed, context.length, generation.length());
        return CompletableFuture.completedFuture(generation);
    }

    /** Tool outputs answer the teacher's native calls one by one; anything else (parse feedback) is a user message. */
    private void addObservation(int[] appended) {
        String content = observations.messageContent(student.tokenizer().decode(appended), lastEndedByStop);
        Optional<List<String>> outputs = observations.outputs(content, lastCalls.size());
        if (outputs.isPresent()) {
            for (int i = 0; i < outputs.get().size(); i++) {
                messages.add(ChatMessage.toolReply(lastCalls.get(i).id(), outputs.get().get(i)));
            }
        } else {
            messages.add(ChatMessage.user(content));
        }
    }

    private Generation asStudentTurn(String text, int maxNewTokens) {
        int[] content = student.tokenizer().encode(text);
        int[] ids = Arrays.copyOf(content, content.length + 1);
        ids[content.length] = student.stopTokenId();
        FinishReason finish = FinishReason.STOP_TOKEN;
        if (ids.length > maxNewTokens) {
            ids = Arrays.copyOf(ids, maxNewTokens);
            text = student.tokenizer().decode(ids);
            finish = FinishReason.MAX_TOKENS;
        }
        return new Generation(ids, new float[ids.length], new int[ids.length], text, finish);
    }
}
