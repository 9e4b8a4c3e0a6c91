package dev.toolcoach.brain.distill;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.brain.run.ModelFolders;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.learn.core.FullWeights;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.policy.LocalPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Knowledge distillation into a local student folder: the teacher answers the dataset with the student's tools (its
 * traces cached), those above the threshold are kept, every weight of the student is trained on them by SFT, and the
 * student is written to {@code out} as a new model folder.
 *
 * @param student      the student's Hugging Face folder
 * @param out          where the distilled student is written
 * @param teacherCache the folder the teacher's traces are cached in (a second run makes no teacher call)
 * @param agent        the agent the demonstrations are written for (the student's action format and limits, greedy)
 * @param seed         the SFT's shuffling seed
 * @param device       where the student trains (a base trained whole is f32 whatever its precision says)
 */
public record StudentDistillation(Path student, Path out, Path teacherCache, AgentConfig agent, long seed, Progress progress,
                                  ComputeDevice device) {

    /**
     * A teacher that is {@link AutoCloseable} (a served local model) is closed when distillation ends.
     *
     * @param learner    the SFT optimiser's settings (learning rate schedule, micro-batch)
     * @param validation the demonstrations held out to score every pass on, and the patience that stops at the best
     */
    public DistillReport run(ToolEnvironment tools, DistillDataset dataset, TeacherFactory teacher, double threshold, int epochs,
                             int batch, LearnerConfig learner, LearnerSft.Validation validation) {
        try (LocalPolicy policy = LocalPolicy.load(student, null, null, 1, device);
             NDManager manager = device.newManager();
             PolicyModel model = ModelLoader.load(student, null, manager);
             LearnerCore core = new LearnerCore(model.transformer(), new FullWeights(model.transformer()), learner)) {
            Student who = new Student(student.getFileName().toString(), policy.tokenizer(), policy.chatFormat(),
                    policy.chatFormat().stopTokenIds().iterator().next());
            LearnerSft sft = new LearnerSft(core, epochs, threshold, batch, seed, progress, validation);
            Distiller distiller = new Distiller(who, tools, new DistillSettings(1, threshold, agent), new TraceCache(teacherCache),
                    sft, progress);
            DistillReport report;
            Teacher made = teacher.create(who, tools.specs());
            try {
                report = OpThreads.with(TrainingRun.LEARNER_INTRA_OP_THREADS, () -> distiller.distill(dataset, made))
                        .withPasses(sft.passes(), sft.keptPass());
            } finally {
                if (made instanceof AutoCloseable closeable) close(closeable);
            }
            ModelFolders.withWeights(student, out, model.config(), model.transformer().weights().toHf(model.config()));
            return report;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the distilled model to " + out, e);
        }
    }

    private static void close(AutoCloseable teacher) {
        try {
            teacher.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the teacher: " + e.getMessage(), e);
        }
    }
}
