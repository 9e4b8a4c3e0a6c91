/**
 * The user API: {@link dev.toolcoach.brain.Brain} and its {@link dev.toolcoach.brain.TrainingConfig}. Beside it: the
 * coaching strategies the Brain calls, Zero-Learn task generation ({@code zerolearn}) and distillation from a teacher
 * with a trace cache ({@code distill}); the JSON Lines dataset they exchange ({@code dataset}); task evaluation
 * ({@code eval}); a training run's actors composed on a node, its folder and progress ({@code run}); the main job
 * ({@code taskjob}), the scratch recipe it follows ({@code scratch}) and the coach node's HTTP controller that runs it
 * ({@code jobcontroller}). The command-line entry points are coach-node's.
 */
package dev.toolcoach.brain;
