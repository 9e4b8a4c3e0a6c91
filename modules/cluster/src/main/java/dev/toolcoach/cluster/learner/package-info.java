/**
 * The learner's logic as plain classes; {@code LearnerActor} only feeds them messages.
 * <ul>
 *   <li>{@code LearnerActor} (thin shell), {@code LearnerSingleton} (one per job on role {@code learner}).</li>
 *   <li>{@code LearnerSteps}: the step state and the learner's counts, no Akka: when a step is due, one at a time, the
 *       job step {@code jobStep(groupsClosed, groupsPerStep)}, when the job is over.</li>
 *   <li>{@code GroupCollector}: traces → complete groups, duplicates, staleness.</li>
 *   <li>{@code GroupScorer}: reward on the whole group → {@code Score}.</li>
 *   <li>{@code TrainingStep}: GRPO/DPO/SFT through {@code LearnerCore}, the learn module's {@code Algorithm}, →
 *       {@code StepResult}.</li>
 *   <li>{@code LearnerMetrics}; {@code LearnerJob}; {@code LearnerSettings} (the job's {@code GroupPlan} and where a
 *       resumed job stands, {@code LearnerSettings.of(plan, cursor)}); {@code LearnerListener}; {@code StepReport}
 *       (what the listener hears of a step: scored and dropped groups, {@code TrainingMetrics}, accounts).</li>
 * </ul>
 *
 * <p><b>The model and memory</b> The learner's model is {@code ModelLoader.shared} (one base per JVM with the engine of
 * the athletes on the same node; its LoRA adapter on top). It scores a micro-batch from the final hidden states
 * ({@code TokenScores.score}), projected to the vocabulary a slice of positions at a time: without gradients (the
 * reference log-probs) it never holds more than one slice of [rows, length, vocab]; with gradients autograd keeps one
 * log-softmax, where whole logits kept four (logits, log-softmax, its exponent and product). A training micro-batch
 * still holds every intermediate of its forward until the backward (DJL frees arrays when their manager closes): on the
 * Qwen2.5-0.5B shape one 512-token row peaks at 6.45 GiB RSS with the base, two rows at 9.7 GiB
 * ({@code bench.model.QwenShapeBench}, modules/bench/README.md), so such a model needs 1 row per micro-batch:
 * {@code TrainingConfig.builder().microBatchRows(1)} ({@code Optimisation.microBatchRows}, default the learner's 8),
 * which {@code TrainingRun} passes to the learner's {@code LearnerConfig}.
 *
 * <p><b>From trace to step</b> It acks every {@code TraceDelivery} as soon as it holds the trace and tells the coach
 * {@code RolloutReceived} (duplicates too); a group the collector drops is closed with
 * {@code GroupDropped(STALE_POLICY|UNUSABLE)}, and a group the coach gave up ({@code DropGivenUpGroup}) with
 * {@code GroupDropped(REDISPATCH_LIMIT)} unless it is already complete (its late traces are duplicates), so the group
 * is counted once ({@code toolcoach_coach_groups_dropped_total{reason="redispatch_limit"}}) and the job still reaches
 * its group limit. On start it tells the coach where it is ({@code LearnerStarted}). When a group completes it is
 * scored whole ({@code GroupScorer.score}) on the job's training thread ({@code pipeToSelf}; the thread's one worker
 * keeps completion order): an unscorable group is closed at once with {@code GroupDropped(REWARD_FAILED)}, and with
 * dynamic sampling (DAPO; {@code TrainingConfig.Batching.oversampling} &gt; 1, the recipe's default 3) a group whose
 * rewards are all equal is closed at once with {@code GroupDropped(NO_SIGNAL)}, counted under that reason, and the
 * coach opens the next query in its place (its {@code groupLimit} counts no dropped group; its {@code sampleLimit} =
 * oversampling × groupLimit bounds everything it opens, so a job whose policy solves, or fails, nearly every query
 * still ends: the last batch trains with what is in).
 *
 * <p>When {@code LearnerSteps} says a step is due ({@code groupsPerStep} scored groups ready, or every group the job
 * still has), the step ({@code TrainingStep.run}) trains them on the training thread, so traces are acked while it
 * trains; then every group of the batch is closed with {@code GroupTrained(version)} (skipped ones too, without dynamic
 * sampling), the new adapter goes to the {@code AdapterPublisher}, and the job's listener hears a {@code StepReport}
 * (the job's step = batches taken, over the job's whole life: {@code LearnerSteps.jobStep} of the groups closed less
 * the dropped ones, which a resumed run uses too; {@code groupsSampled} = the batch and every group dropped since the
 * previous step, {@code informativeGroups} = those of the batch with signal: {@code metrics.jsonl}'s
 * {@code groups_sampled} and {@code informative_fraction}, and {@code /metrics}'
 * {@code toolcoach_learner_last_groups_sampled} / {@code toolcoach_learner_last_informative_fraction}). The groups
 * dynamic sampling dropped for lack of signal go to the step's {@code StepReport.noSignal} (the step line's
 * {@code sampled_accuracy}). A batch trains in the order the coach opened its groups
 * ({@code LearnerSteps.DISPATCH_ORDER}), not their completion order. Every {@code checkpointEvery} job steps it asks
 * the coach for its cursor (after the step's group reports, so the cursor has them closed) and saves the learner with
 * it on the training thread. A reward that cannot work at all ({@code RewardUnavailableException}) or a failing step
 * stops the learner and fails the job. {@code GetLearnerStatus} answers {@code LearnerStatus} (its
 * {@code LearnerAccounts} and step state); the same figures are on {@code /metrics} ({@code toolcoach_learner_*}).
 *
 * <p><b>Counts have one owner</b> The collector, the scorer and the training step return what they did
 * ({@code Admission}, {@code GroupScorer.Score}, {@code StepResult}) and {@code LearnerSteps} alone applies it, on the
 * actor's thread, each change a new immutable {@code LearnerAccounts} ({@code protocol}): every complete group ends in
 * exactly one disposition (dropped, by {@code GroupDropped.Reason} in a {@code GroupCounts}, the shape the coach's
 * {@code CoachProgress} and {@code CoachCursor} count drops in too; skipped by a step for lack of signal; trained) or
 * is still {@code pending()}; a group the coach gave up is dropped without completing.
 * <ul>
 *   <li>{@code GroupCollector(G, maxPolicyLag).offer(trace, currentVersion)} → {@code Admission}. A rollout id
 *       already held, or any trace of a group already judged, is a {@code DUPLICATE} (discarded; {@code LearnerSteps}
 *       counts it). When the G-th trace arrives the group is judged once: if its oldest generated token
 *       ({@code policyVersions}, -1 ignored) is more than {@code max-policy-lag} versions behind the current policy it
 *       is {@code GROUP_STALE}; if a trace fails the learner's own check ({@code TrainingSequence.from}: no generated
 *       token, ...) it is {@code GROUP_UNUSABLE}; else {@code GROUP_READY}, and {@code takeReady(n)} hands groups out
 *       in completion order.</li>
 *   <li>{@code GroupScorer(reward).score(group, example)}: one {@code Reward.scoreGroup} call on the whole group
 *       (ranking judges see every rollout) → {@code Scored(ScoredGroup)}; a {@code Dropped} outcome (or a wrong count
 *       / non-finite score from a hand-written {@code Reward}) → {@code Unscored(groupId, reason)};
 *       {@code RewardUnavailableException} propagates and stops the job.</li>
 *   <li>{@code TrainingStep(core, Algorithm.parse("grpo"|"dpo"|"sft"), sftThreshold).run(groups)} →
 *       {@code StepResult(version, skippedGroups, metrics, published, elapsed)} ({@code metrics}: the sealed
 *       {@code TrainingMetrics}, one of {@code GrpoMetrics}/{@code DpoMetrics}/{@code SftMetrics}); {@code published}
 *       holds the new {@code AdapterWeights} (version v+1) only when the weights changed (a batch of equal-reward
 *       groups trains nothing and publishes nothing). SFT trains on the groups' traces at or above the threshold.
 *       {@code LearnerSteps.stepDone(result)} counts it and makes the listener's {@code StepReport}.</li>
 * </ul>
 */
package dev.toolcoach.cluster.learner;
