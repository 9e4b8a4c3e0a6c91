package dev.toolcoach.brain.jobcontroller;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.taskjob.EvalRecord;
import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.StepLine;

import java.util.List;
import java.util.Map;

/**
 * A job on the coach node as {@code GET /jobs} shows it.
 *
 * @param name        the run's name (its folder under the runs folder)
 * @param task        the task
 * @param state       {@code running}, {@code finished}, {@code failed} or {@code cancelled}
 * @param phase       what it is doing: model, evaluate, warm-up, train, save, cancelling, done
 * @param totalSteps  learner steps the job trains
 * @param lastStep    the latest learner step (step, version, mean reward, accuracy, rollouts/s), null before the first
 * @param evaluations test-split evaluations so far
 * @param heldOut     the held-out evaluations run while training so far, by step
 * @param error       why it failed, null otherwise
 */
public record JobStatus(String name, String task, String state, String phase, @JsonProperty("total_steps") long totalSteps,
                        @JsonProperty("last_step") StepLine lastStep, Map<String, EvalRecord> evaluations,
                        @JsonProperty("held_out") List<HeldOutLine> heldOut, String error) {
}
