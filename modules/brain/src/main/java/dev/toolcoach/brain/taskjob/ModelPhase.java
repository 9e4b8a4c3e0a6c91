package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.AgentTools;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.scratch.TaskTexts;
import dev.toolcoach.brain.scratch.ScratchModel;
import dev.toolcoach.brain.scratch.TaskVocabulary;
import dev.toolcoach.tasks.TaskExample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The job's first phase when it brings no model: a task-sized model in {@code init/}, its vocabulary learned from the
 * oracle's texts (the oracle rolled out through the job's own tools on the recipe's share of the training split), its
 * weights initialised from the job's seed.
 */
final class ModelPhase {
    private static final Logger LOG = LoggerFactory.getLogger(ModelPhase.class);

    private ModelPhase() {
    }

    static void run(JobRun job, Path dir) throws IOException {
        job.listener().phase("model");
        job.times().time(PhaseTimes.MODEL, () -> write(job, dir));
    }

    private static void write(JobRun job, Path dir) throws IOException {
        ScratchRecipe recipe = job.recipe();
        Progress progress = job.listener().progress();
        try (AgentTools.Open tools = job.brain().agentTools().open()) {
            List<String> texts;
            List<TaskExample> sources = recipe.vocabulary().from(job.split().train());
            try (Progress.Meter meter = progress.start("model: oracle texts", sources.size(), "examples")) {
                texts = TaskTexts.of(sources, tools, recipe.greedyAgent(), meter);
            }
            TaskVocabulary vocabulary;
            ScratchModel model;
            try (Progress.Meter meter = progress.start("model: vocabulary and weights", 1, "models")) {
                vocabulary = TaskVocabulary.learn(texts, recipe.vocabulary().maxMerges(), recipe.vocabulary().minMergeCount());
                model = ScratchModel.write(dir, vocabulary, recipe.shape(), job.spec().seed());
                meter.step();
            }
            LOG.info("task-sized model: vocabulary {}, {}", vocabulary.size(), model.config());
        }
    }
}
