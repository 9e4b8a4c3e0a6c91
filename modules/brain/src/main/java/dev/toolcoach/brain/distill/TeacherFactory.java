package dev.toolcoach.brain.distill;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * Makes the teacher once the student is known (its tokenizer and chat format) and its tools are open.
 * A teacher that is {@link AutoCloseable} (a {@link LocalModelTeacher}) belongs to whoever called the factory.
 */
@FunctionalInterface
public interface TeacherFactory {

    Teacher create(Student student, List<ToolSpec> tools);

    /** The task's oracle solutions ({@link OracleTeacher}). */
    static TeacherFactory oracle(String taskName) {
        return (student, tools) -> new OracleTeacher(taskName, student);
    }

    /** The task's oracle, wrong on a share of the examples ({@link OracleTeacher.Errors}). */
    static TeacherFactory oracle(String taskName, OracleTeacher.Errors errors) {
        return (student, tools) -> new OracleTeacher(taskName, student, errors);
    }

    /** An OpenAI-compatible endpoint ({@link OpenAiTeacher}). */
    static TeacherFactory endpoint(OpenAiConfig config) {
        return (student, tools) -> new OpenAiTeacher(new OpenAiClient(config), student, tools);
    }

    /** A local Hugging Face model folder, served in-process while distillation runs ({@link LocalModelTeacher}). */
    static TeacherFactory localModel(Path folder, ComputeDevice device) {
        return (student, tools) -> new LocalModelTeacher(folder, student, tools, device);
    }
}
