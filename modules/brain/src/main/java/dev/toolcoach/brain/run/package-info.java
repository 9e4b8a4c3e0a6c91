/**
 * A training run: the job's actors composed on a node, the synchronous loop, run folders and progress.
 *
 * <p><b>TrainingRun, the composition root</b> A training job is the coach and learner singletons (named per job, so one
 * long-lived coach node runs job after job), the adapter publisher and the job's announcer, spawned on a node
 * ({@code cluster.node.JobNode}) by {@code TrainingRun}. It lives in brain, above cluster, because it turns the Brain's
 * {@code TrainingConfig} into the actors' settings ({@code GroupPlan}, {@code CoachSettings}, {@code LearnerSettings})
 * and the job's {@code JobSpec}; cluster never sees the user API.
 * <ul>
 *   <li>Embedded ({@code JobNode.allRoles}): a new node in this JVM with every role, remoting and management on free
 *       ports of 127.0.0.1, forming its own one-node cluster; its {@code NodeGuardian} starts tool servers for the
 *       job's suites and an {@code AthleteHost} with as many athletes as the job asks for, which finds the job through
 *       its announcer like any athlete node. The same actors as a cluster job, in one JVM.</li>
 *   <li>On a cluster ({@code JobNode.attach}): the coach node's own system; the cluster's athlete nodes find the job
 *       through its announcer and load the model by path (a folder every node can read: the same machine here, shared
 *       storage elsewhere; only adapters travel over the network).</li>
 * </ul>
 *
 * <p>The learner trains its own copy of the base model (LoRA on it); it resumes from the newest good checkpoint in the
 * job's folder (learner state + the coach's cursor: the coach re-runs the groups that were open). When the job ends the
 * announcer and the publisher stop, and athlete nodes release the job. {@code TaskRewards} builds one
 * {@code RewardContext} per example when the job starts ({@code TaskRewards.contexts}; a query outside the dataset is
 * refused by name and its group dropped as unscored; a step's accuracy is {@code TaskRewards.succeeded}).
 *
 * <p><b>SyncGrpo</b> The loop an embedded job runs at policy lag 0 ({@code train --mode sync}, {@code Brain.train}), in
 * one thread of control without the actors: {@code fit()} drives the coach's {@code RolloutScheduler}, an athlete's
 * {@code AgentLoop}, the learner's {@code LearnerSteps}, {@code GroupScorer} and {@code TrainingStep} in their order
 * (dynamic sampling's refills, deadlines and given-up groups included), records, checkpoints (with the scheduler's
 * cursor, so a rerun resumes) and probes each step, and stops under the job's watchdog or an interrupt. Set up as
 * {@code TrainingRun} sets a job up ({@code TrainingRun.JobLearner}, {@code coachSettings}). {@code SyncGrpoTest} pins it
 * to a cluster run of the same spec (the same groups, dropped groups, tokens and rewards in the same steps; losses and
 * adapters to float rounding). Under {@code --mode turn-barrier} each batch of rollouts it sends out goes behind a
 * {@code TurnBarrier} (a {@code Generator} wrapper: a turn's replies handed out together, the next turn started once
 * every tool call of the batch is back), VerlTool's synchronous rollout, for measuring what asynchrony buys.
 *
 * <p><b>What is deterministic</b> In {@code --mode sync} a rerun with the same seed repeats the job: the task, split,
 * vocabulary and model come from the seed; the warm-up and learner steps run on one intra-op thread with seeded
 * optimisers; every rollout samples with its own seed ({@code RolloutRequest.seededFrom}: the job seed and the rollout
 * id), whichever athlete runs it; with lag 0 every rollout of a step is sampled by
 * the same adapter version, and the coach opens groups in query order, so which groups are dropped for lack of signal
 * and which make a batch is fixed, and the batch trains in dispatch order. In async mode (lag 1) it is not: which
 * adapter version samples a rollout depends on when it reaches an athlete relative to the learner's steps, so rewards,
 * batches and the final accuracy vary between reruns of one seed. Floating-point results also depend on the machine's
 * PyTorch build and CPU kernels, so runs are repeatable on one machine, not bit-identical across machines; and a
 * batched decode row's log-probs move by about 1e-5 with the rows that share its step, so a draw that lands that close
 * to the boundary between two tokens can tip when the batches change (a turn-barrier run of hpo left the sync run's
 * tokens after 3-5 steps: modules/bench/README.md). Training
 * steps (the warm-up's SFT, the learner's thread) run on one PyTorch intra-op thread ({@code model.OpThreads}): two
 * spin against each other on a busy 2-core machine.
 *
 * <p><b>Run folders</b> A run folder holds {@code config.json}, {@code init/}, {@code distilled/}, {@code warmup.json},
 * {@code eval.json}, {@code metrics.jsonl} ({@code RunRecorder}), {@code traces.jsonl}, {@code tool_use.jsonl},
 * {@code checkpoints/}, {@code adapter/} (PEFT) and {@code reward_curve.png} (XChart, {@code RewardCurve};
 * {@code RewardCurve.writeComparison} draws several runs' learning curves in one PNG); running the job again on the
 * same folder skips finished phases and resumes training.
 * <ul>
 *   <li>A job that died between a step and that step's checkpoint redoes the steps after the checkpoint;
 *       {@code RunRecorder} then removes their earlier lines from {@code metrics.jsonl} and {@code traces.jsonl} (each
 *       trace carries its {@code job_step}), so every step and every trained rollout is recorded once.</li>
 *   <li>Run folders survive a crash mid-write: appends ({@code trace.JsonLines.write}) go out in one write and are
 *       synced; a torn last line (bytes after the last newline) is cut off before the next append and when
 *       {@code RunRecorder} opens the folder (counted, logged); the rewrite after a resume drops a line that is not
 *       JSON (by number, never echoed) instead of failing; a step whose records cannot be written fails the job (a full
 *       disk: one line naming the file; {@code RunsFolderFullTest} fills a 2.5 MiB tmpfs mid-job in a namespace of its
 *       own, {@code unshare -Urm}, then resumes with room and checks every step and rollout is recorded once).</li>
 *   <li>Checkpoints are written to a temporary file, synced, renamed and the directory synced ({@code learn.checkpoint.
 *       CheckpointStore}; a write that fails removes its partial temporary file, whose room a later save needs);
 *       {@code PeriodicCheckpoints} counts a checkpoint saved only after the save succeeded.</li>
 *   <li>A job holds its run folder's {@code RunFolderLock} (an OS lock on {@code <run>/.lock}, dropped when the process
 *       dies) while it runs: a second job on the folder, in this process or another, is refused with one line
 *       ({@code train}: exit 1; {@code POST /jobs}: 409).</li>
 *   <li>Each step line ({@code metrics.jsonl}, {@code StepLine}) carries the step's policy lag (versions between the
 *       policy trained from and the oldest that generated a token of a trace: mean and max) and its tool results by
 *       tool ({@code ToolCallStats}). A step's accuracy is the share of rollouts the reward gave 1
 *       ({@code RunRecorder}'s success sees the reward given), twice: over the groups trained on ({@code accuracy}) and
 *       over every rollout sampled for the step ({@code sampled_accuracy}, {@code sampled_mean_reward}:
 *       {@code LearnerSteps} hands the groups dynamic sampling dropped for lack of signal to the step's
 *       {@code StepReport.noSignal}); the curve, the dashboard and the progress line show the sampled ones.</li>
 * </ul>
 *
 * <p><b>Every job ends</b> {@code TrainingConfig.Limits} (on a coach node {@code toolcoach.jobs.job-timeout} 7 d,
 * {@code stall-timeout} 30 min, {@code max-redispatches} 3) bound a training run: {@code JobWatchdog} ends it as failed
 * when it passed its job timeout or no learner step completed within the stall timeout (athletes that never answer, a
 * hung reward, a lost learner); the job's actors are stopped and its training thread interrupted. A rollout taken back
 * (missed deadline, lost athlete) more than {@code max-redispatches} times gives its group up (a poison query): the
 * coach sends no more of it and asks the learner ({@code DropGivenUpGroup}, to the learner that introduced itself with
 * {@code LearnerStarted}) to drop it, which answers {@code GroupDropped(REDISPATCH_LIMIT)} unless it already holds the
 * whole group, so the group is counted once ({@code toolcoach_coach_groups_dropped_total{reason="redispatch_limit"}})
 * and the job still reaches its group limit.
 *
 * <p><b>Progress</b> Every long piece of a job (the scratch model's oracle texts and vocabulary, each evaluation, the
 * warm-up's teacher traces and SFT batches, GRPO's steps) starts a {@code Progress} meter
 * ({@code JobListener.progress()}, the Brain's {@code progress(..)}); {@code ConsoleProgress} draws each as a progress
 * bar (elapsed, rate, ETA), redrawn on a terminal, else a line every 30 s and one when it ends (a job on the coach
 * node: those lines in the node's log). {@code ToolUseChart} draws the tools report's PNG.
 */
package dev.toolcoach.brain.run;
