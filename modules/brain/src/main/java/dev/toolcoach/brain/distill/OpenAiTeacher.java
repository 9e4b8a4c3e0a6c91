package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.openai.ToolDefinition;
import dev.toolcoach.tasks.TaskExample;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A large model behind an OpenAI-compatible endpoint as teacher. Each rollout is a chat with it:
 * the student's system prompt and the query, then the teacher's replies and the tool outputs; every
 * reply is re-tokenised with the student's tokenizer as a generated turn (see {@link TeacherGenerator}).
 */
public final class OpenAiTeacher implements Teacher {

    /** Failures no retry of another rollout can fix: distillation stops on them. */
    private static final Set<OpenAiException.Kind> FATAL = EnumSet.of(OpenAiException.Kind.UNREACHABLE,
            OpenAiException.Kind.UNAUTHORIZED, OpenAiException.Kind.REQUEST_REJECTED);

    private final OpenAiClient client;
    private final Student student;
    private final List<ToolDefinition> tools;
    private final AtomicReference<OpenAiException> fatal = new AtomicReference<>();

    /** @param tools the student's tools, offered to the teacher as OpenAI function definitions */
    public OpenAiTeacher(OpenAiClient client, Student student, List<ToolSpec> tools) {
        this.client = client;
        this.student = student;
        this.tools = tools.stream().map(t -> ToolDefinition.function(t.name(), t.description(), t.parameters())).toList();
    }

    @Override
    public String id() {
        return "openai:" + client.config().baseUrl() + "#" + client.config().model();
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        return new TeacherGenerator(client, student, tools, format, systemPrompt, example.query(), this::noteFailure);
    }

    @Override
    public void checkUsable() {
        OpenAiException e = fatal.get();
        if (e != null) throw new TeacherUnavailableException("teacher " + id() + " cannot be used: " + e.getMessage(), e);
    }

    private void noteFailure(OpenAiException e) {
        if (FATAL.contains(e.kind())) fatal.compareAndSet(null, e);
    }
}
