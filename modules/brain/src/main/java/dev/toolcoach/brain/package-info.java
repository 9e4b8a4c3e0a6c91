/**
 * The user API: {@link dev.toolcoach.brain.Brain} and its {@link dev.toolcoach.brain.TrainingConfig}. Beside it: the
 * coaching strategies the Brain calls, Zero-Learn task generation ({@code zerolearn}) and distillation from a teacher
 * with a trace cache ({@code distill}); the JSON Lines dataset they exchange ({@code dataset}); task evaluation
 * ({@code eval}); a training run's actors composed on a node, its folder and progress ({@code run}); the main job
 * ({@code taskjob}), the scratch recipe it follows ({@code scratch}) and the coach node's HTTP controller that runs it
 * ({@code jobcontroller}). The command-line entry points are coach-node's.
 *
 * <p>The Brain is a facade over {@code run}, {@code eval} and {@code distill} ({@code Brain}, {@code BrainBuilder},
 * {@code AgentTools}, {@code TrainingConfig}, whose builder holds the one set of training defaults). Beside it: helper
 * models ({@code endpoint}), the job's {@code taskjob.ToolChoice} (retrieval, distractors) and
 * {@code taskjob.JudgeChoice}, and a skill's measurement ({@code skills}). No picocli: its commands are coach-node's.
 * Its surface: modules/brain/API.md.
 */
package dev.toolcoach.brain;
