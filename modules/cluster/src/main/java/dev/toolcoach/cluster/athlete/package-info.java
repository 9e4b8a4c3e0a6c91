/**
 * Athletes: the actors that run rollouts.
 * <ul>
 *   <li>{@code AthleteActor}: a thin shell (registers with the Receptionist, answers {@code Echo}; given an
 *       {@code AthleteJob}, pulls and runs rollouts). {@code AthleteActor.create(AthleteJob(coach, learner, runner,
 *       delivery))} is a thin shell over {@code AthleteWork} and {@code RolloutRunner}; {@code AthleteActor.create()}
 *       (an idle athlete) only registers and answers {@code Echo}.</li>
 *   <li>{@code AthleteWork}: one rollout at a time and the trace's send/ack/resend protocol (what to do next: run,
 *       send, stop resending, ask for work), no Akka.</li>
 *   <li>{@code RolloutRunner}: one agent loop for all its rollouts: an assignment's example → a seeded
 *       {@code RolloutRequest} → a trace (none when stopped at its deadline), after the {@code PolicyGate}.</li>
 *   <li>{@code PolicyGate}: wait for a recent enough adapter. {@code AthleteJob}, {@code DeliverySettings}.</li>
 * </ul>
 *
 * <p>How an athlete node finds a job and builds its athletes is {@code dev.toolcoach.cluster.job.AthleteHost}'s.
 *
 * <p><b>Rules</b>
 * <ul>
 *   <li>One rollout at a time: on start, and whenever it is free, the athlete sends {@code RequestRollouts(self, 1)}.
 *       An assignment beyond that (never sent by the coach) waits in a queue instead of being lost.</li>
 *   <li>{@code RolloutRunner.run(AssignRollout)} runs the rollout off the actor thread ({@code pipeToSelf}) on the
 *       runner's one {@code AgentLoop} (parser, tool runner and system prompt built once per job, shared by the node's
 *       athletes). The request is {@code TaskExample.rolloutRequest} (the last user message and the example's own
 *       tools; the gold facts and {@code gold_answer} go into the trace metadata, recorded with the trace) seeded by
 *       {@code RolloutRequest.seededFrom(base seed)}: base seed × 31 + the rollout id's hash, the one place of the
 *       formula (the synchronous loop {@code SyncGrpo} calls it too), so a group's G rollouts differ yet each is
 *       reproducible. Before it starts, a rollout waits ({@code PolicyGate}, over
 *       {@code InferenceEngine.whenAdapterAtLeast}) until the engine holds the assignment's policy version minus
 *       {@code max-policy-lag}, at most the gate timeout ({@code JobSpec.gateTimeout}, the job's rollout timeout; then
 *       it runs anyway: the learner judges it): after a resume, or in the synchronous mode (lag 0), rollouts are never
 *       sampled by an adapter the learner would only drop as stale. A failing run is an ERROR trace (AgentLoop).</li>
 *   <li>Deadline: once started, a rollout runs at most the same rollout timeout ({@code AgentLoop.run(request,
 *       timeLimit)}). Still running then, it is stopped (no further turn or tool call; its trajectory released, so the
 *       tool servers cancel its calls, CANCELLED), and the runner yields no trace ({@code Optional.empty()}): the
 *       coach's deadline, counted from dispatch, has already sent the rollout to another athlete, so a trace would be
 *       a duplicate or a cut-off run. The athlete logs it and asks for new work, as after a run that failed without a
 *       trace ({@code AthleteWork.rolloutFailed}).</li>
 *   <li>Delivery: {@code TraceDelivery(trace, ackAdapter)} to the learner, sent again every {@code ackTimeout} until
 *       the matching {@code TraceAck}, at most {@code maxAttempts} sends (defaults 5 s × 6); then the athlete gives
 *       the trace up (logged) and asks for work, and the coach's deadline re-dispatches the rollout. The athlete never
 *       reports a rollout done: the coach hears it from the learner ({@code RolloutReceived}). A trace larger than one
 *       Artery frame ({@code serialization.FrameBudget}: measured by its serializer, less 8 KiB for the envelope) is
 *       not sent: logged, counted on {@code toolcoach_messages_oversized_total{kind="TraceDelivery"}}, and the rollout
 *       comes back through the coach's deadline (Artery would otherwise drop it silently and the athlete resend it in
 *       vain).</li>
 *   <li>A failure in the shell restarts the actor (supervision), which asks for work again.</li>
 * </ul>
 */
package dev.toolcoach.cluster.athlete;
