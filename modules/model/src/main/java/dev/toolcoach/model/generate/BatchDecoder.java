package dev.toolcoach.model.generate;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.KvSlots;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Continuous batching over one model and a KV cache of slots ({@link KvSlots}), one sequence per slot. A request
 * takes a slot and prefills only what the slot does not already hold: its conversation's own slot keeps the keys of
 * every earlier turn, and a new conversation copies the longest prefix another slot computed with the current
 * adapter (the G rollouts of a group share their prompt: it is prefilled once). Each {@link #step} is one batched
 * forward over slots 0..n-1, n one past the highest decoding slot; slots between that hold no decoding sequence ride
 * along idle. A finished sequence's slot is kept (parked) for its conversation's next turn until
 * {@link #release}d, or taken back when a request needs a slot and none is free: the least recently used parked slot
 * is evicted. Not thread-safe: one thread drives it.
 */
public final class BatchDecoder implements AutoCloseable {
    /** Most prompt tokens (rows x longest new part) prefilled in one forward; bounds the [k, L, T] mask and activations. */
    private static final int PREFILL_TOKEN_BUDGET = 4096;
    /** A shorter common prefix is prefilled again rather than copied from another slot (a copy costs a few ops a layer). */
    public static final int MIN_SHARED_PREFIX = 16;

    private final Transformer base;
    private final ModelTokenizer tokenizer;
    private final NDManager manager;
    private final KvSlots cache;
    private final Slot[] slots;
    private final DecoderStats.Counter stats = new DecoderStats.Counter();
    private long stepCount;
    private long clock;

    /** A decoder of {@code slotCount} slots over {@code base} (the shape and type every policy it runs shares). */
    public BatchDecoder(Transformer base, ModelTokenizer tokenizer, int slotCount, NDManager parent) {
        this.base = base;
        this.tokenizer = tokenizer;
        this.manager = parent.newSubManager();
        this.cache = new KvSlots(base.config(), manager, slotCount, base.dtype());
        this.slots = new Slot[slotCount];
        for (int i = 0; i < slotCount; i++) {
            slots[i] = new Slot(i);
        }
    }

    /** Synchronous generation of one sequence on the calling thread: a decoder with one slot. */
    public static DecodedSequence decodeOne(Transformer model, ModelTokenizer tokenizer, int[] prompt, SamplingParams params,
                                            LoraAdapter lora) {
        CompletableFuture<DecodedSequence> out = new CompletableFuture<>();
        DecodingPolicy policy = DecodingPolicy.of(model, lora);
        try (BatchDecoder decoder = new BatchDecoder(model, tokenizer, 1, model.manager())) {
            decoder.admit(List.of(new DecodeRequest(null, prompt, params, out)), policy);
            while (!out.isDone()) {
                decoder.step(policy);
            }
        }
        return out.join();
    }

    /** Sequences being decoded. */
    public int activeCount() {
        int n = 0;
        for (Slot s : slots) {
            n += s.decoding != null ? 1 : 0;
        }
        return n;
    }

    /** Slots a new request may take: free ones and parked ones (evicted if needed). */
    public int admissible() {
        return slots.length - activeCount();
    }


    /** Forward passes run so far (prefills and decode steps); every token records the one that produced it. */
    public long stepCount() {
        return stepCount;
    }

    /** What the cache holds and what reusing it saved, so far. */
    public DecoderStats stats() {
        int parked = 0;
        int free = 0;
        for (Slot s : slots) {
            if (!s.used) {
                free++;
            } else if (s.decoding == null) {
                parked++;
            }
        }
        return stats.snapshot(slots.length, slots.length - parked - free, parked, cache.bytes());
    }

    /**
     * Takes a slot for each request (at most {@link #admissible()} of them), prefills what the slot does not hold with
     * {@code policy} and samples each one's first token. A request whose context is invalid, or whose prefill fails,
     * fails its own future only. Futures complete on this thread when their sequence finishes (possibly right away).
     */
    public void admit(List<DecodeRequest> requests, DecodingPolicy policy) {
        List<Plan> plans = new ArrayList<>();
        Map<IntBuffer, Plan> leaders = new HashMap<>();
        for (DecodeRequest r : requests) {
            String problem = promptProblem(r.prompt());
            if (problem != null) {
                r.result().completeExceptionally(new IllegalArgumentException(problem));
                continue;
            }
            Plan leader = leaders.get(IntBuffer.wrap(r.prompt()));
            Plan plan = leader != null ? follower(r, leader) : place(r, policy.version());
            if (plan == null) {
                r.result().completeExceptionally(new IllegalStateException("no free KV slot: admit at most admissible() requests"));
                continue;
            }
            if (leader == null) {
                leaders.put(IntBuffer.wrap(r.prompt()), plan);
            }
            plans.add(plan);
        }
        List<Plan> group = new ArrayList<>();
        int longest = 0;
        for (Plan p : plans) {
            if (p.leader != null) {
                continue;
            }
            int widest = Math.max(longest, p.newTokens());
            if (!group.isEmpty() && (long) (group.size() + 1) * widest > PREFILL_TOKEN_BUDGET) {
                prefill(group, policy);
                group = new ArrayList<>();
                widest = p.newTokens();
            }
            group.add(p);
            longest = widest;
        }
        if (!group.isEmpty()) {
            prefill(group, policy);
        }
        for (Plan p : plans) {
            if (p.leader != null) {
                follow(p, policy);
            }
        }
    }

    /**
     * A slot for the request and what it keeps of the slot's keys: its conversation's own parked slot (everything the
     * context still shares with it); else a parked slot of no conversation that holds a long prefix of the context
     * (taken over in place); else a free slot, or the least recently used parked one (evicted), into which the longest
     * prefix any slot computed with the current adapter is copied. At least the context's last token is left to
     * prefill, for its logits. Null when every slot is decoding.
     */
    private Plan place(DecodeRequest r, int version) {
        int[] context = r.prompt();
        Slot own = null;
        Slot free = null;
        Slot donor = null;
        int shared = 0;
        for (Slot s : slots) {
            if (own == null && r.conversation() != null && r.conversation().equals(s.conversation) && !s.busy()) {
                own = s;
            }
            if (!s.used) {
                free = free == null ? s : free;
            } else {
                int p = s.commonPrefix(context, version);
                if (p > shared) {
                    shared = p;
                    donor = s;
                }
            }
        }
        int limit = context.length - 1;
        if (own != null) {
            int kept = own.commonPrefix(context, Integer.MIN_VALUE);
            if (kept >= shared || shared < MIN_SHARED_PREFIX) {
                return keep(r, own, Math.min(kept, limit));
            }
        }
        if (own == null && donor != null && shared >= MIN_SHARED_PREFIX && !donor.busy() && donor.conversation == null) {
            return keep(r, donor, Math.min(shared, limit)); // an anonymous prefix: taken over in place
        }
        Slot slot = own != null ? own : free != null ? free : leastRecentlyUsedParked(donor);
        if (slot == null) {
            return null;
        }
        if (slot.used && slot != own && slot.conversation != null) {
            stats.evictions++;
        }
        slot.reset(r.conversation());
        slot.reserved = true;
        slot.lastUse = ++clock;
        if (donor != null && donor != slot && shared >= MIN_SHARED_PREFIX) {
            int columns = Math.min(shared, limit);
            cache.copyPrefix(donor.index, slot.index, columns);
            slot.copyFrom(donor, columns);
            stats.sharedTokens += columns;
        }
        return new Plan(r, slot);
    }

    private Plan keep(DecodeRequest r, Slot slot, int columns) {
        slot.truncate(columns);
        slot.conversation = r.conversation();
        slot.releasePending = false;
        slot.reserved = true;
        slot.lastUse = ++clock;
        stats.reusedTokens += columns;
        return new Plan(r, slot);
    }

    /** The parked slot used longest ago, sparing {@code spared} (the best donor) unless it is the only one. */
    private Slot leastRecentlyUsedParked(Slot spared) {
        Slot oldest = null;
        for (Slot s : slots) {
            if (s.used && !s.busy() && s != spared && (oldest == null || s.lastUse < oldest.lastUse)) {
                oldest = s;
            }
        }
        return oldest != null || spared == null || spared.busy() ? oldest : spared;
    }

    /** A request with the same context as an earlier one of this admission: a slot of its own, filled after the leader's prefill. */
    private Plan follower(DecodeRequest r, Plan leader) {
        Slot slot = null;
        for (Slot s : slots) {
            if (r.conversation() != null && r.conversation().equals(s.conversation) && !s.busy()) {
                slot = s;
                break;
            }
        }
        if (slot == null) {
            for (Slot s : slots) {
                if (!s.used) {
                    slot = s;
                    break;
                }
            }
        }
        if (slot == null) {
            slot = leastRecentlyUsedParked(leader.slot);
            if (slot == leader.slot) {
                slot = null;
            }
        }
        if (slot == null) {
            return null;
        }
        if (slot.used && slot.conversation != null && !slot.conversation.equals(r.conversation())) {
            stats.evictions++;
        }
        slot.reset(r.conversation());
        slot.reserved = true;
        slot.lastUse = ++clock;
        Plan plan = new Plan(r, slot);
        plan.leader = leader;
        return plan;
    }

    private void prefill(List<Plan> group, DecodingPolicy policy) {
        int k = group.size();
        int[][] tokens = new int[k][];
        int[] rows = new int[k];
        int[] starts = new int[k];
        for (int r = 0; r < k; r++) {
            Plan p = group.get(r);
            int[] context = p.request.prompt();
            tokens[r] = Arrays.copyOfRange(context, p.slot.length, context.length);
            rows[r] = p.slot.index;
            starts[r] = p.slot.length;
            stats.prefillTokens += tokens[r].length;
        }
        stepCount++; // a prefill is a forward of its own: its tokens never share a step number with a decode step
        float[] logits;
        try (NDManager scope = manager.newSubManager()) {
            logits = policy.model().forward(StepInputs.slotted(tokens, rows, starts), scope, cache, policy.adapter(), false, true)
                    .toFloatArray();
        } catch (RuntimeException e) {
            for (Plan p : group) { // only these requests; the batch decoding meanwhile is untouched
                p.slot.free();
                p.request.result().completeExceptionally(e);
            }
            return;
        }
        for (int r = 0; r < k; r++) {
            Plan p = group.get(r);
            p.slot.append(tokens[r], policy.version());
            p.logits = logits;
            p.row = r;
            start(p, policy);
        }
    }

    /** A request whose context equals an earlier one of the same admission: the leader's keys, copied, and its logits. */
    private void follow(Plan p, DecodingPolicy policy) {
        Plan leader = p.leader;
        if (leader.logits == null) { // the leader's prefill failed
            p.slot.free();
            p.request.result().completeExceptionally(new IllegalStateException("the prefill of this context failed"));
            return;
        }
        int columns = p.request.prompt().length;
        cache.copyPrefix(leader.slot.index, p.slot.index, columns);
        p.slot.copyFrom(leader.slot, columns);
        stats.sharedTokens += columns;
        p.logits = leader.logits;
        p.row = leader.row;
        start(p, policy);
    }

    private void start(Plan p, DecodingPolicy policy) {
        DecodeRequest r = p.request;
        ActiveSequence seq = new ActiveSequence(r.prompt().length, r.params(), r.result());
        p.slot.reserved = false;
        p.slot.decoding = seq;
        int vocab = base.config().vocabSize();
        sample(p.slot, p.logits, p.row * vocab, policy.version());
    }

    private String promptProblem(int[] prompt) {
        int maxSeq = base.config().contextLength();
        if (prompt.length == 0 || prompt.length >= maxSeq) {
            return "prompt of " + prompt.length + " tokens must be non-empty and shorter than the context " + maxSeq;
        }
        for (int id : prompt) {
            if (id < 0 || id >= base.config().vocabSize()) {
                return "prompt token id " + id + " is outside the vocabulary of " + base.config().vocabSize();
            }
        }
        return null;
    }

    /** One batched decode step over slots 0..n-1 with {@code policy}; slots among them that hold no decoding sequence idle. */
    public void step(DecodingPolicy policy) {
        int n = 0;
        for (Slot s : slots) {
            if (s.decoding != null) {
                n = s.index + 1;
            }
        }
        if (n == 0) {
            return;
        }
        stepCount++;
        int[][] tokens = new int[n][];
        int[] rows = new int[n];
        int[] starts = new int[n];
        int decoding = 0;
        for (int i = 0; i < n; i++) {
            Slot s = slots[i];
            rows[i] = i;
            starts[i] = s.length;
            if (s.decoding != null) {
                tokens[i] = new int[] {s.decoding.lastToken()};
                decoding++;
            } else {
                tokens[i] = new int[0];
            }
        }
        stats.decodeRows += decoding;
        stats.idleRows += n - decoding;
        stats.decodeSteps++;
        int vocab = base.config().vocabSize();
        float[] logits;
        try (NDManager scope = manager.newSubManager()) {
            logits = policy.model().forward(StepInputs.slotted(tokens, rows, starts), scope, cache, policy.adapter(), false, true)
                    .toFloatArray();
        }
        for (int i = 0; i < n; i++) {
            Slot s = slots[i];
            if (s.decoding != null) {
                s.append(tokens[i], policy.version());
                sample(s, logits, i * vocab, policy.version());
            }
        }
    }

    /** Samples the slot's next token; a sequence whose sampling fails (its parameters) fails alone. */
    private void sample(Slot s, float[] logits, int offset, int version) {
        ActiveSequence seq = s.decoding;
        try {
            seq.accept(seq.sampler.sample(logits, offset, base.config().vocabSize()), version, stepCount, tokenizer,
                    base.config().contextLength());
        } catch (RuntimeException e) {
            s.free();
            seq.future.completeExceptionally(e);
            return;
        }
        if (seq.done()) {
            s.decoding = null;
            s.lastUse = ++clock;
            if (s.releasePending) {
                s.free();
            }
            seq.future.complete(seq.result());
        }
    }

    /**
     * The conversation is over: its slot is freed (after its running sequence, if one is still decoding). Unknown
     * conversations are ignored.
     */
    public void release(String conversation) {
        for (Slot s : slots) {
            if (conversation.equals(s.conversation)) {
                if (s.decoding == null) {
                    s.free();
                } else {
                    s.releasePending = true;
                }
            }
        }
    }

    /** Fails every decoding sequence (after an error that leaves the step's state unusable) and frees every slot. */
    public void failAll(Throwable cause) {
        for (Slot s : slots) {
            ActiveSequence seq = s.decoding;
            s.free();
            if (seq != null) {
                seq.future.completeExceptionally(cause);
            }
        }
    }

    @Override
    public void close() {
        manager.close();
    }

    /** One request's way into the batch: its slot, what it reuses, and (after its prefill) its logits row. */
    private static final class Plan {
        final DecodeRequest request;
        final Slot slot;
        Plan leader;
        float[] logits;
        int row;

        Plan(DecodeRequest request, Slot slot) {
            this.request = request;
            this.slot = slot;
        }

        int newTokens() {
            return request.prompt().length - slot.length;
        }
    }

    /**
     * One slot's bookkeeping: the token held at each cached column and the adapter version that computed it, the
     * conversation it belongs to, and the sequence decoding in it.
     */
    private static final class Slot {
        final int index;
        String conversation;
        int[] tokens = new int[64];
        int[] versions = new int[64];
        int length;
        boolean used;
        /** Taken by a request of the admission under way, not yet decoding: no other request may take it. */
        boolean reserved;
        boolean releasePending;
        ActiveSequence decoding;
        long lastUse;

        Slot(int index) {
            this.index = index;
        }

        void reset(String owner) {
            conversation = owner;
            length = 0;
            used = true;
            reserved = false;
            releasePending = false;
            decoding = null;
        }

        void free() {
            reset(null);
            used = false;
        }

        boolean busy() {
            return decoding != null || reserved;
        }

        /**
         * Columns [0, p) whose tokens are the context's first p (and, unless {@code version} is MIN_VALUE, were all
         * computed by that adapter version): what a request for that context can reuse.
         */
        int commonPrefix(int[] context, int version) {
            int n = Math.min(length, context.length);
            int p = 0;
            while (p < n && tokens[p] == context[p] && (version == Integer.MIN_VALUE || versions[p] == version)) {
                p++;
            }
            return p;
        }

        void truncate(int columns) {
            length = columns;
        }

        void copyFrom(Slot donor, int columns) {
            ensure(columns);
            System.arraycopy(donor.tokens, 0, tokens, 0, columns);
            System.arraycopy(donor.versions, 0, versions, 0, columns);
            length = columns;
        }

        void append(int[] ids, int version) {
            ensure(length + ids.length);
            System.arraycopy(ids, 0, tokens, length, ids.length);
            Arrays.fill(versions, length, length + ids.length, version);
            length += ids.length;
        }

        private void ensure(int size) {
            if (size > tokens.length) {
                int n = Math.max(size, tokens.length * 2);
                tokens = Arrays.copyOf(tokens, n);
                versions = Arrays.copyOf(versions, n);
            }
        }
    }
}
