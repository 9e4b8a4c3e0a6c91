/**
 * Every message that crosses nodes, one file per actor, each a final class holding the actor's sealed {@code Command}
 * (exactly the wire records it accepts, plus a non-sealed {@code Local} for what the actor sends itself or its own node
 * tells it in-process) and, nested, its messages and replies as records, as akka-samples do. A new cross-node message
 * is a record nested in its actor's protocol file, listed by that actor's {@code Command}, bound to CBOR or Kryo in
 * {@code reference.conf} and round-tripped in the serialization tests.
 * <ul>
 *   <li>{@code CoachProtocol}: {@code RequestRollouts}, {@code RolloutReceived}, {@code GroupTrained},
 *       {@code GroupDropped} with its {@code Reason} ({@code STALE_POLICY}, {@code UNUSABLE}, {@code REWARD_FAILED},
 *       {@code REDISPATCH_LIMIT}, {@code NO_SIGNAL}), {@code GetProgress}/{@code CoachProgress},
 *       {@code GetCursor}/{@code CoachCursor}, {@code LearnerStarted}.</li>
 *   <li>{@code LearnerProtocol}: {@code TraceDelivery}/{@code TraceAck},
 *       {@code GetLearnerStatus}/{@code LearnerStatus}, {@code LearnerAccounts}, {@code DropGivenUpGroup}.</li>
 *   <li>{@code AthleteProtocol}: {@code AssignRollout}.</li>
 *   <li>{@code ToolServerProtocol}: {@code ExecuteToolCalls}/{@code ToolCallResults}, {@code ReleaseTrajectory},
 *       {@code GetToolSpecs}/{@code ToolSpecs}.</li>
 *   <li>{@code AdapterPublisherProtocol}: {@code RequestLatestAdapter}.</li>
 *   <li>{@code AdapterReceiverProtocol}: {@code AdapterPart} ({@code AdapterLayout} + {@code WeightsChunk}, Kryo).</li>
 *   <li>{@code JobProtocol}: {@code GetJob}/{@code JobSpec}, {@code AdaptSpec}.</li>
 *   <li>{@code EchoProtocol}: {@code Echo}/{@code EchoReply}, the probe athletes and tool servers both answer.</li>
 *   <li>{@code GroupCounts}: dropped groups by reason, the coach's and the learner's one shape.</li>
 *   <li>The markers {@code CborSerializable} (control messages, bound to {@code toolcoach-cbor}) and
 *       {@code KryoSerializable} (bulk numeric messages, bound to {@code toolcoach-kryo}); see
 *       {@code dev.toolcoach.cluster.serialization}.</li>
 * </ul>
 *
 * <p><b>What the main messages carry</b>
 * <ul>
 *   <li>{@code WeightsChunk(version, index, count, offset, totalFloats, checksum, payload)}: an adapter is flattened to
 *       one float array and cut into chunks of at most 192 KiB of floats, below Artery's 256 KiB frame; the CRC32 of
 *       the whole adapter rides in every chunk and is checked after reassembly.</li>
 *   <li>{@code TraceDelivery(trace, replyTo)} carries a whole {@code dev.toolcoach.trace.Trace}; the learner answers
 *       {@code TraceAck}.</li>
 *   <li>{@code AssignRollout} carries the typed {@code TaskExample} (messages, the example's own tool specs, the
 *       oracle's turns, gold facts) as CBOR: a few KiB, far below the frame. The learner scores a group with the
 *       example's {@code RewardContext} (query, gold answer, the oracle's calls, gold facts: made from the
 *       {@code TaskExample}, never holding a second copy of it), built once per example when the job starts
 *       ({@code brain.run.TaskRewards.contexts}; a query outside the dataset is refused by name and its group dropped
 *       as unscored; a step's accuracy is {@code TaskRewards.succeeded}).</li>
 * </ul>
 *
 * <p><b>Why not Akka's reliable delivery</b> ({@code akka.actor.typed.delivery}, work pulling included) for rollouts
 * and traces: its protocols have two parties, a producer and a consumer, and confirm a message when the consumer has
 * it. Here a rollout has three: the coach hands it out ({@code AssignRollout}), an athlete runs it, and the learner
 * holds its trace ({@code TraceDelivery}, acked with {@code TraceAck}); the coach may count the rollout done only when
 * the learner holds the trace, which the learner tells it ({@code RolloutReceived}), never the athlete. So the coach's
 * side is work pulling with credit ({@code RequestRollouts}) and deadlines that re-dispatch whatever is not confirmed
 * ({@code RolloutScheduler}), the athlete resends a trace until the learner acks it ({@code AthleteWork}), and the
 * learner treats a second copy as a duplicate ({@code GroupCollector}): at-least-once on each hop, exactly-once
 * counting at the learner, with the state that decides (which rollouts are done) in one place and in the checkpoint's
 * cursor. Reliable delivery would add a second, hidden confirmation state per hop that a checkpoint cannot carry, and
 * would still need the three-party rule on top.
 */
package dev.toolcoach.cluster.protocol;
