/**
 * The coach: which rollout goes to which athlete, and when a group is closed.
 * <ul>
 *   <li>{@code RolloutScheduler<A>}: holds every rule, no Akka.</li>
 *   <li>{@code CoachActor}: a thin shell (delivery of the scheduler's {@code Assignment}s, death watch, deadline
 *       tick).</li>
 *   <li>{@code CoachSingleton}: {@code CoachSingleton.init(system, CoachActor.create(...))} runs it once per job on the
 *       oldest {@code coach} node (role {@code coach}), returning a proxy every node can use.</li>
 *   <li>{@code CursorCodec}: the cursor a checkpoint carries. {@code CoachSettings}: the job's {@code GroupPlan},
 *       rollout timeout, re-dispatch cap. {@code CoachMetrics}: the coach's figures on {@code /metrics}
 *       ({@code toolcoach_coach_*}).</li>
 * </ul>
 *
 * <p>All coach messages are CBOR.
 *
 * <p><b>Rules</b>
 * <ul>
 *   <li>Groups: each {@code TaskExample} of the dataset (the coach reads only its id) opens group {@code g<n>} of G
 *       rollouts {@code g<n>/<i>}; the cursor walks the queries in order and wraps (counting epochs) until the plan's
 *       ({@code GroupPlan}) {@code groupLimit} groups have opened, not counting those the learner or the coach dropped
 *       (any {@code GroupDropped.Reason}: the next query takes their place, so steps stay full and are numbered 1, 2,
 *       ... without a gap), and never more than {@code sampleLimit} in all. A group opens only when an athlete needs
 *       work.</li>
 *   <li>Work pulling: {@code RequestRollouts(athlete, n)} adds n credit; each {@code AssignRollout(rolloutId, groupId,
 *       example, policyVersion)} (the typed {@code TaskExample}, CBOR) uses one, so an athlete never has more than it
 *       asked for. Order: rollouts taken back first, then unsent rollouts of open groups, then a new group.</li>
 *   <li>Lag bound: at most {@code (maxPolicyLag + 1) × groupsPerStep} groups open. At the bound no group opens, but
 *       rollouts of open groups still go out. A group counts until the learner closes it.</li>
 *   <li>Faults: every rollout out has a deadline ({@code rolloutTimeout}, injected {@code Clock}, checked on a timer
 *       tick); an athlete that stops or whose node is removed (death watch) gives its rollouts back. Either way the
 *       rollout waits first in line for the next athlete that asks, at most {@code maxRedispatches} times
 *       ({@code CoachSettings}); taken back once more, its group is given up: the coach sends no more of it and asks
 *       the learner ({@code DropGivenUpGroup}, to the learner that introduced itself with {@code LearnerStarted}) to
 *       drop it.</li>
 *   <li>Done means the learner holds the trace: {@code RolloutReceived(id)}. A second report of a done rollout, or a
 *       report for a closed group, is a counted duplicate. {@code GroupTrained(id, version)} / {@code GroupDropped(id,
 *       reason)} close an open group once; a repeat or unknown report is counted ({@code reportsIgnored}) and logged,
 *       never applied. Closing cancels its unfinished rollouts.</li>
 *   <li>{@code GetProgress} → {@code CoachProgress}: groups dispatched/completed/trained/dropped by reason/open;
 *       rollouts dispatched/re-dispatched/completed/cancelled/in flight/queued; deadlines missed, athlete losses,
 *       duplicates, ignored reports, policy version, finished. Group counts span the job; rollout counts are this
 *       coach's.</li>
 *   <li>Checkpoints: {@code GetCursor} → {@code CoachCursor} (next example, epoch, next group, open groups with their
 *       query ids, version, group counts). {@code RolloutScheduler.resume} (or {@code CoachActor.create(...,
 *       Optional.of(cursor), ...)}) re-runs the open groups from scratch, first, and refuses a cursor whose query ids
 *       do not match the dataset.</li>
 * </ul>
 */
package dev.toolcoach.cluster.coach;
