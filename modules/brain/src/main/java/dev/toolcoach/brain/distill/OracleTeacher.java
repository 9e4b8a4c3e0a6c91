package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.tasks.TaskExample;

/**
 * A task's oracle as teacher: replays each example's ideal turns ({@link TaskExample#oracleCompletions},
 * what the tasks module's OracleRollout replays), tokenised with the student's tokenizer so the
 * traces are the student's own ids.
 */
public final class OracleTeacher implements Teacher {

    private final String taskName;
    private final Student student;

    public OracleTeacher(String taskName, Student student) {
        this.taskName = taskName;
        this.student = student;
    }

    @Override
    public String id() {
        return "oracle:" + taskName;
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        return new ReplayGenerator(student.tokenizer(), student.stopTokenId(), example.oracleCompletions(format), 0, 0L);
    }
}
