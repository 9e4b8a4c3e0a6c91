package dev.toolcoach.model.generate;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.KvCache;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Continuous batching over one model: sequences join (prompts arriving together are prefilled in one forward,
 * then their cache rows are appended to the batch cache) and leave between steps; each {@link #step} is one
 * batched forward over every active sequence. Not thread-safe: one thread drives it.
 */
public final class BatchDecoder implements AutoCloseable {
    /** Most prompt tokens (rows x longest prompt) prefilled in one forward; bounds the [k, L, L] mask and activations. */
    private static final int PREFILL_TOKEN_BUDGET = 4096;

    private final Transformer model;
    private final ModelTokenizer tokenizer;
    private final NDManager manager;
    private final List<ActiveSequence> active = new ArrayList<>();
    private KvCache cache;
    private long stepCount;

    public BatchDecoder(Transformer model, ModelTokenizer tokenizer, NDManager parent) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.manager = parent.newSubManager();
    }

    /** Synchronous generation of one sequence on the calling thread: a decoder with one row. */
    public static DecodedSequence decodeOne(Transformer model, ModelTokenizer tokenizer, int[] prompt, SamplingParams params,
                                            LoraAdapter lora) {
        CompletableFuture<DecodedSequence> out = new CompletableFuture<>();
        try (BatchDecoder decoder = new BatchDecoder(model, tokenizer, model.manager())) {
            decoder.admit(prompt, params, lora, out);
            while (!out.isDone()) {
                decoder.step(lora);
            }
        }
        return out.join();
    }

    public int activeCount() {
        return active.size();
    }

    /** Forward passes run so far (prefills and decode steps); every token records the one that produced it. */
    public long stepCount() {
        return stepCount;
    }

    /** Admits one request; see {@link #admit(List, LoraAdapter)}. */
    public void admit(int[] prompt, SamplingParams params, LoraAdapter lora, CompletableFuture<DecodedSequence> result) {
        admit(List.of(new DecodeRequest(prompt, params, result)), lora);
    }

    /**
     * Prefills the prompts in groups (left-padded to each group's longest) with {@code lora} (null = base model),
     * samples each one's first token and adds the survivors to the batch. A request with an invalid prompt fails
     * its own future only. Futures complete on this thread when their sequence finishes (possibly right away).
     */
    public void admit(List<DecodeRequest> requests, LoraAdapter lora) {
        List<DecodeRequest> group = new ArrayList<>();
        int longest = 0;
        for (DecodeRequest r : requests) {
            String problem = promptProblem(r.prompt());
            if (problem != null) {
                r.result().completeExceptionally(new IllegalArgumentException(problem));
                continue;
            }
            int widest = Math.max(longest, r.prompt().length);
            if (!group.isEmpty() && (long) (group.size() + 1) * widest > PREFILL_TOKEN_BUDGET) {
                prefill(group, longest, lora);
                group = new ArrayList<>();
                widest = r.prompt().length;
            }
            group.add(r);
            longest = widest;
        }
        if (!group.isEmpty()) {
            prefill(group, longest, lora);
        }
    }

    private void prefill(List<DecodeRequest> group, int longest, LoraAdapter lora) {
        int k = group.size();
        int[][] tokens = new int[k][longest];
        int[] starts = new int[k];
        List<ActiveSequence> joined = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            int[] p = group.get(r).prompt();
            starts[r] = longest - p.length;
            Arrays.fill(tokens[r], 0, starts[r], p[0]); // padding: any valid id, its columns are masked
            System.arraycopy(p, 0, tokens[r], starts[r], p.length);
            joined.add(new ActiveSequence(p.length, group.get(r).params(), group.get(r).result()));
        }
        int vocab = model.config().vocabSize();
        stepCount++; // a prefill is a forward of its own: its tokens never share a step number with a decode step
        KvCache own = new KvCache(model.config(), manager, k, model.dtype());
        float[] logits;
        try (NDManager scope = manager.newSubManager()) {
            logits = model.forward(StepInputs.cached(tokens, starts, own), scope, own, lora, false, true).toFloatArray();
        }
        for (int r = 0; r < k; r++) {
            ActiveSequence seq = joined.get(r);
            seq.start = starts[r];
            seq.accept(seq.sampler.sample(logits, r * vocab, vocab), version(lora), stepCount, tokenizer, model.config().contextLength());
        }
        join(joined, own);
    }

    private String promptProblem(int[] prompt) {
        int maxSeq = model.config().contextLength();
        if (prompt.length == 0 || prompt.length >= maxSeq) {
            return "prompt of " + prompt.length + " tokens must be non-empty and shorter than the context " + maxSeq;
        }
        for (int id : prompt) {
            if (id < 0 || id >= model.config().vocabSize()) {
                return "prompt token id " + id + " is outside the vocabulary of " + model.config().vocabSize();
            }
        }
        return null;
    }

    /** Moves the prefilled sequences' cache rows into the batch cache (finished ones complete right away). */
    private void join(List<ActiveSequence> joined, KvCache own) {
        List<ActiveSequence> alive = new ArrayList<>();
        List<Integer> rows = new ArrayList<>();
        for (int r = 0; r < joined.size(); r++) {
            if (!joined.get(r).done()) {
                alive.add(joined.get(r));
                rows.add(r);
            }
        }
        if (alive.isEmpty()) {
            own.close();
        } else {
            if (alive.size() < joined.size()) {
                own.keepRows(rows.stream().mapToInt(Integer::intValue).toArray());
            }
            if (cache == null) {
                cache = own;
            } else {
                int[] shifts = cache.appendRows(own);
                own.close();
                active.forEach(s -> s.start += shifts[0]);
                alive.forEach(s -> s.start += shifts[1]);
            }
            active.addAll(alive);
            compact();
        }
        joined.stream().filter(ActiveSequence::done).forEach(s -> s.future.complete(s.result()));
    }

    /** One batched decode step over all active sequences with {@code lora} (null = base model). */
    public void step(LoraAdapter lora) {
        if (active.isEmpty()) {
            return;
        }
        stepCount++;
        int b = active.size();
        int[][] tokens = new int[b][1];
        int[] starts = new int[b];
        for (int i = 0; i < b; i++) {
            tokens[i][0] = active.get(i).lastToken();
            starts[i] = active.get(i).start;
        }
        int vocab = model.config().vocabSize();
        float[] logits;
        try (NDManager scope = manager.newSubManager()) {
            logits = model.forward(StepInputs.cached(tokens, starts, cache), scope, cache, lora, false, true).toFloatArray();
        }
        int version = version(lora);
        for (int i = 0; i < b; i++) {
            ActiveSequence s = active.get(i);
            s.accept(s.sampler.sample(logits, i * vocab, vocab), version, stepCount, tokenizer, model.config().contextLength());
        }
        retireFinished();
    }

    private void retireFinished() {
        List<ActiveSequence> finished = active.stream().filter(ActiveSequence::done).toList();
        if (finished.isEmpty()) {
            return;
        }
        List<ActiveSequence> kept = active.stream().filter(s -> !s.done()).toList();
        int[] rows = new int[kept.size()];
        for (int i = 0, r = 0; i < active.size(); i++) {
            if (!active.get(i).done()) {
                rows[r++] = i;
            }
        }
        active.clear();
        active.addAll(kept);
        if (kept.isEmpty()) {
            cache.close();
            cache = null;
        } else {
            cache.keepRows(rows);
            compact();
        }
        finished.forEach(s -> s.future.complete(s.result()));
    }

    /** Drops the leading columns no active sequence uses (left over from departed or padded sequences). */
    private void compact() {
        int unused = active.stream().mapToInt(s -> s.start).min().orElse(0);
        cache.dropLeft(unused);
        active.forEach(s -> s.start -= unused);
    }

    /** Fails every active sequence (after an error that leaves the batch state unusable) and empties the batch. */
    public void failAll(Throwable cause) {
        active.forEach(s -> s.future.completeExceptionally(cause));
        active.clear();
        if (cache != null) {
            cache.close();
            cache = null;
        }
    }

    /** The policy version each token records: 0 for the base model. */
    private static int version(LoraAdapter lora) {
        return lora == null ? 0 : lora.version();
    }

    @Override
    public void close() {
        manager.close();
    }
}
