package dev.toolcoach.brain.run;

import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Phaser;

/**
 * Synchronous multi-turn rollout for one batch: no trajectory starts generating turn t+1 before
 * every trajectory of the batch still running has finished turn t (its reply and its tool calls).
 * With {@link #holdingReplies} the replies of a turn are also handed out together, once every
 * running trajectory's reply is generated, as a batched generate call returns them; that is the
 * synchronous rollout VerlTool compares its asynchronous one with. Without a barrier (the
 * {@link AgentLoop} alone) each trajectory runs on its own.
 *
 * <p>Use: one barrier per batch naming every trajectory id of the batch up front; give
 * {@link #generator(Generator)} to the {@link AgentLoop}(s) that run the batch and run every
 * trajectory named (a named trajectory that never runs holds the others at its first turn). Nothing
 * in the loop changes: the barrier sees a trajectory finish turn t when it asks for turn t+1's reply,
 * and leave when the loop releases it ({@link Generator#release}), which the loop does however
 * the run ends (answer, limit, error), so an ended trajectory never holds the others.
 *
 * <p>Waiting never blocks a thread: a held request is started, later, by the thread whose arrival
 * completed the phase (the last trajectory to arrive or to leave), so the wrapped generator's
 * {@code generate} must not block, as the {@link Generator} contract already asks.
 */
public final class TurnBarrier {

    /**
     * Each trajectory arrives twice per turn: when it asks for the turn's reply (phase 2t) and when
     * that reply is generated (phase 2t+1). Generation of turn t starts once phase 2t has advanced;
     * held replies are handed out once phase 2t+1 has advanced.
     */
    private final Phaser phaser;
    /** One stage per phase someone waits on, completed once that phase has advanced. */
    private final Map<Integer, CompletableFuture<Void>> advances = new ConcurrentHashMap<>();
    private final Map<String, Member> members;
    private final boolean holdReplies;

    private TurnBarrier(Collection<String> trajectoryIds, boolean holdReplies) {
        Map<String, Member> byId = new LinkedHashMap<>();
        for (String id : trajectoryIds) {
            if (byId.put(Objects.requireNonNull(id, "trajectory id"), new Member()) != null) {
                throw new IllegalArgumentException("trajectory " + id + " is named twice");
            }
        }
        if (byId.isEmpty()) throw new IllegalArgumentException("a batch needs at least one trajectory");
        this.members = Map.copyOf(byId);
        this.phaser = new Phaser(byId.size());
        this.holdReplies = holdReplies;
    }

    /** A turn-level barrier: every running trajectory finishes turn t before any starts turn t+1. */
    public static TurnBarrier turns(Collection<String> trajectoryIds) {
        return new TurnBarrier(trajectoryIds, false);
    }

    /**
     * The turn-level barrier, and the replies of each turn handed out only once all of the turn's
     * replies are generated, so no tool of turn t runs before the batch's generation of turn t is over.
     */
    public static TurnBarrier holdingReplies(Collection<String> trajectoryIds) {
        return new TurnBarrier(trajectoryIds, true);
    }

    /** {@code inner} behind this barrier: the generator to give the agent loop(s) of the batch. */
    public Generator generator(Generator inner) {
        Objects.requireNonNull(inner, "inner");
        return new Generator() {
            @Override
            public CompletionStage<Generation> generate(GenerationRequest request) {
                return held(request, inner);
            }

            @Override
            public void release(String trajectoryId) {
                leave(trajectoryId);
                inner.release(trajectoryId);
            }
        };
    }

    /** How many trajectories of the batch are still running (have not been released). */
    public int running() {
        return Math.max(phaser.getRegisteredParties(), 0);
    }

    /**
     * Marks a trajectory as gone without running it further, e.g. one its caller gave up on before
     * starting. The generator given to the loop does this itself when the loop releases a trajectory.
     * Leaving twice, or leaving an id not in the batch, does nothing.
     */
    public void leave(String trajectoryId) {
        Member member = members.get(trajectoryId);
        if (member == null) return;
        CompletableFuture<Void> start = new CompletableFuture<>();
        synchronized (member) {
            if (member.left) return;
            member.left = true;
            arrive(member, start, true);
        }
        start.complete(null);
    }

    private CompletionStage<Generation> held(GenerationRequest request, Generator inner) {
        Member member = members.get(request.trajectoryId());
        if (member == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("trajectory " + request.trajectoryId()
                    + " is not in this batch"));
        }
        CompletableFuture<Void> start = new CompletableFuture<>();
        CompletableFuture<Generation> reply;
        CompletableFuture<Void> allGenerated;
        synchronized (member) {
            if (member.left) {
                return CompletableFuture.failedFuture(new IllegalStateException("trajectory " + request.trajectoryId()
                        + " has already left the batch"));
            }
            CompletableFuture<Void> turnOpen = arrive(member, start, false);
            reply = turnOpen.thenCompose(ignored -> inner.generate(request));
            // arrives even when generation fails: the loop then ends the run and leaves, one phase later
            allGenerated = arrive(member, reply, false);
        }
        start.complete(null);
        return holdReplies ? reply.thenCombine(allGenerated, (generation, ignored) -> generation) : reply;
    }

    /**
     * Queues the member's next arrival after {@code ready} and after the phase of its previous
     * arrival has advanced (a party may arrive only once per phase); returns the stage that completes
     * when the phase of this arrival advances. Called with the member's lock held, so its arrivals
     * are queued in call order; callers complete {@code ready} only after letting the lock go, so no
     * arrival (and no held work it sets off) ever runs under a member's lock.
     */
    private CompletableFuture<Void> arrive(Member member, CompletionStage<?> ready, boolean deregister) {
        CompletableFuture<Void> settled = ready.toCompletableFuture().handle((value, failure) -> null);
        CompletableFuture<Void> advanced = member.advanced.thenCombine(settled, (a, b) -> (Void) null)
                .thenCompose(ignored -> advanceOf(deregister ? phaser.arriveAndDeregister() : phaser.arrive()));
        member.advanced = advanced;
        return advanced;
    }

    /**
     * The stage of {@code phase}'s advance. Whoever finds the phaser past {@code phase} completes
     * it; the last arrival always does, since it advanced the phase before asking. A terminated
     * phaser (everyone left) reports a negative phase, so it too completes the stage.
     */
    private CompletableFuture<Void> advanceOf(int phase) {
        CompletableFuture<Void> advance = advances.computeIfAbsent(phase, p -> new CompletableFuture<>());
        if (phaser.getPhase() != phase) {
            advance.complete(null);
            advances.remove(phase, advance);
        }
        return advance;
    }

    /** Where one trajectory is: the advance of the phase of its latest arrival, and whether it left. */
    private static final class Member {
        CompletableFuture<Void> advanced = CompletableFuture.completedFuture(null);
        boolean left;
    }
}
