package dev.toolcoach.brain.distill;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.Brain;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tiny model folders as teacher and student, through {@code Brain.distill}: the teacher (hand-set to answer "ok",
 * {@link OkTeacherModel}) is served on loopback and asked like an endpoint; its answers are kept by a reward that
 * takes any answer, so the pipeline's counts, the cache and the SFT are what is checked, not the teacher's skill.
 */
class LocalModelTeacherTest {

    static final Task ARITHMETIC = ArithmeticTask.create(2, 4L);
    static final TraceReward ANY_ANSWER = (trace, example) -> trace.finalAnswer() == null ? 0 : 1;

    static Brain brain(Path student, Path work) {
        return Brain.builder().model(student).tool("arithmetic").traceReward("any", (trace, context) -> 1.0)
                .config(TrainingConfig.builder().rollouts(new RolloutSettings(0, 48, 2, 4096)).seed(3).build()).workDir(work).build();
    }

    @Test
    void aLocalFolderTeachesTheStudentAndASecondRunAsksItNothing(@TempDir Path dir) throws Exception {
        Path teacherDir = OkTeacherModel.write(dir.resolve("teacher"));
        Path studentDir = TinyChatModel.write(dir.resolve("student"), 5);
        Path work = dir.resolve("work");
        DistillDataset dataset = new DistillDataset("tiny-arithmetic", ARITHMETIC.examples(), ANY_ANSWER);
        List<LocalModelTeacher> teachers = new ArrayList<>();
        TeacherFactory local = (student, tools) -> {
            LocalModelTeacher t = new LocalModelTeacher(teacherDir, student, tools, ComputeDevice.cpu());
            teachers.add(t);
            return t;
        };

        Brain first = brain(studentDir, work);
        DistillReport report = first.distill(dataset, local, 0.5, 1, 2, LearnerConfig.defaults(1e-2));

        LocalModelTeacher teacher = teachers.get(0);
        assertEquals(2, report.collected());
        assertFalse(report.fromCache());
        assertEquals(report.collected(), report.keptCount() + report.skipped().values().stream().mapToInt(Integer::intValue).sum());
        assertEquals(2, report.keptCount(), () -> "not all kept: " + report.skipped());
        assertEquals("ok", report.kept().get(0).trace().finalAnswer());
        assertEquals(2, teacher.requests(), "one chat request per rollout (each answers at once)");
        assertTrue(report.trainedTokens() > 0);
        assertEquals(work.resolve("distilled"), first.model());
        assertNotEquals(-1L, Files.mismatch(studentDir.resolve("model.safetensors"), work.resolve("distilled/model.safetensors")),
                "the student's weights did not change");
        assertThrows(IllegalStateException.class, () -> teacher.generatorFor(ARITHMETIC.examples().get(0), ActionFormat.TOOL_N1, "x"),
                "the Brain closes the teacher when distillation ends");
        assertTrue(report.kept().stream().allMatch(k -> teacher.id().equals(k.trace().metadata().get("teacher"))));

        DistillReport again = brain(studentDir, work).distill(dataset, local, 0.5, 1, 2, LearnerConfig.defaults(1e-2));

        LocalModelTeacher second = teachers.get(1);
        assertEquals(teacher.id(), second.id());
        assertTrue(again.fromCache());
        assertFalse(second.started(), "a cache hit never loads the teacher model");
        assertEquals(0, second.requests());
        assertEquals(report.collected(), again.collected());
        assertEquals(report.keptCount(), again.keptCount());
        assertEquals(report.trainedTokens(), again.trainedTokens());
    }

    @Test
    void theIdFollowsTheFolderAndItsModel(@TempDir Path dir) throws Exception {
        Student student = DistillTest.STUDENT;
        Path a = TinyChatModel.write(dir.resolve("a"), 1);
        String before = new LocalModelTeacher(a, student, List.of(), ComputeDevice.cpu()).id();
        assertEquals(before, new LocalModelTeacher(a, student, List.of(), ComputeDevice.cpu()).id());
        assertTrue(before.startsWith("local:" + a.toAbsolutePath()), before);

        Files.writeString(a.resolve("generation_config.json"), "{\"eos_token_id\": [258]}");

        assertNotEquals(before, new LocalModelTeacher(a, student, List.of(), ComputeDevice.cpu()).id());
        ModelLoadException missing = assertThrows(ModelLoadException.class,
                () -> new LocalModelTeacher(dir.resolve("none"), student, List.of(), ComputeDevice.cpu()));
        assertTrue(missing.getMessage().contains("config.json"), missing.getMessage());
    }
}
