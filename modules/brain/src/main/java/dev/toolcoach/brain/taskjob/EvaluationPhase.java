package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.eval.EvalSession;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.tooluse.ToolUse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * One evaluation of the job's model as it stands (before training, after the warm-up, after training): greedy accuracy
 * on the test split by the task's reward and, on {@code passQueries} when there are any, pass@k of the sampling policy
 * on training queries. It lands in {@code eval.json} under its name, and its tool calls in {@code tool_use.jsonl}.
 */
final class EvaluationPhase {
    private static final Logger LOG = LoggerFactory.getLogger(EvaluationPhase.class);

    private EvaluationPhase() {
    }

    static void run(JobRun job, String name, List<TaskExample> passQueries) throws IOException {
        job.times().time(PhaseTimes.EVALUATIONS, () -> evaluate(job, name, passQueries));
    }

    private static void evaluate(JobRun job, String name, List<TaskExample> passQueries) throws IOException {
        job.listener().phase("evaluate");
        long start = System.nanoTime();
        EvalRecord record;
        long evaluated;
        int k = TaskTrainingJob.PASS_AT_K;
        // one model load for the phase: the test split greedily, then pass@k on the training queries
        try (EvalSession session = job.brain().evaluation(Math.max(job.split().test().size(), passQueries.size() * k))) {
            EvaluationReport report = session.evaluate(job.split().test(), job.taskReward());
            ToolUse.append(job.folder().resolve(ToolUse.FILE),
                    report.toolUse(TaskTrainingJob.evalRunId(job.folder(), name), job.task().name()));
            record = EvalRecord.of(report);
            evaluated = System.nanoTime();
            if (!passQueries.isEmpty()) record = record.withTraining(session.passAtK(passQueries, job.taskReward(), k, k));
        }
        LOG.info("{}: {} test examples in {} s, pass@{} on {} training queries in {} s", name, record.examples(),
                Math.round((evaluated - start) / 1e9), k, passQueries.size(), Math.round((System.nanoTime() - evaluated) / 1e9));
        job.evals().put(name, record);
        TaskTrainingJob.writeJson(job.folder().resolve("eval.json"), job.evals());
        job.listener().evaluated(name, record);
    }
}
