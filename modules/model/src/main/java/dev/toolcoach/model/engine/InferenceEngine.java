package dev.toolcoach.model.engine;

import ai.djl.Device;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodeRequest;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.generate.DecoderStats;
import dev.toolcoach.model.generate.DecodingPolicy;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One per node: owns the model copy, a KV cache of one slot per sequence (see {@link BatchDecoder}) and a decode
 * thread that runs continuous batching for every caller. Callers submit contexts from any thread, each optionally
 * part of a conversation whose KV cache the engine keeps between its turns until {@link #release}d; between two
 * decode steps the thread swaps in a newly published adapter, admits waiting requests (one per free slot) and retires
 * finished ones, so each step is one batched forward with one adapter version.
 *
 * <p>A published adapter is merged into a copy of the projections it targets (W + scale A B, once per version) when
 * that copy fits {@link #mergeLimitBytes}: decoding then runs the plain base graph, with no adapter op per step;
 * otherwise the adapter is applied at every step. The shared base itself is never changed (the learner trains over
 * it and scores the reference policy with it).
 */
public final class InferenceEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InferenceEngine.class);

    private final Transformer model;
    private final BatchDecoder decoder;
    private final int intraOpThreads;
    private final long mergeLimitBytes;
    private final BlockingQueue<DecodeRequest> queue = new LinkedBlockingQueue<>();
    private final Queue<String> releases = new ConcurrentLinkedQueue<>();
    private final AtomicReference<AdapterWeights> pendingAdapter = new AtomicReference<>();
    private final Queue<VersionWaiter> versionWaiters = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile int adapterVersion;
    private volatile long steps;
    private volatile DecoderStats stats;
    private LoraAdapter adapter;
    private Transformer merged;
    private volatile DecodingPolicy policy;

    /**
     * An engine whose decode thread uses one intra-op thread: measured on the 2-core machines, two threads collapse
     * (OpenMP spin-waiting) as soon as other processes compete for the cores.
     */
    public InferenceEngine(Transformer model, ModelTokenizer tokenizer, int maxBatch) {
        this(model, tokenizer, maxBatch, 1);
    }

    /**
     * @param maxBatch       KV slots: the most sequences decoding at once, and conversations kept between turns
     * @param intraOpThreads intra-op threads of the decode thread (0 = PyTorch's default); the setting is per
     *                       thread under OpenMP, so it is applied on the decode thread itself
     */
    public InferenceEngine(Transformer model, ModelTokenizer tokenizer, int maxBatch, int intraOpThreads) {
        if (maxBatch <= 0 || intraOpThreads < 0) {
            throw new IllegalArgumentException("maxBatch must be positive and intraOpThreads non-negative, got "
                    + maxBatch + ", " + intraOpThreads);
        }
        this.model = model;
        this.intraOpThreads = intraOpThreads;
        this.mergeLimitBytes = mergeLimitBytes(model.device());
        this.decoder = new BatchDecoder(model, tokenizer, maxBatch, model.manager());
        this.policy = DecodingPolicy.of(model, null);
        this.stats = decoder.stats();
        this.thread = new Thread(this::run, "inference-engine");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The largest merged copy an engine keeps rather than applying the adapter per step: on a GPU, where each extra op
     * is a kernel launch and memory is plenty, 8 GiB; on the CPU 512 MiB (a 0.5B model's all-projection copy, about
     * 1.4 GB in f32, is not worth its memory there, where the adapter's small matmuls cost little beside the base's).
     */
    static long mergeLimitBytes(Device device) {
        return device.isGpu() ? 8L << 30 : 512L << 20;
    }

    /** Queues a generation outside any conversation; see {@link #submit(String, int[], SamplingParams)}. */
    public CompletableFuture<DecodedSequence> submit(int[] prompt, SamplingParams params) {
        return submit(null, prompt, params);
    }

    /**
     * Queues a generation; the future completes when it finishes (or fails with the reason). Continuations run on
     * the common pool, never on the decode thread, so a slow caller cannot stall everyone's decoding.
     *
     * @param conversation null, or the conversation {@code context} extends: the engine keeps its KV cache from its
     *                     last request (until {@link #release} or, when slots run short, eviction) and prefills only the
     *                     tokens after the longest prefix it still holds
     */
    public CompletableFuture<DecodedSequence> submit(String conversation, int[] context, SamplingParams params) {
        CompletableFuture<DecodedSequence> result = new CompletableFuture<>();
        if (closed) {
            result.completeExceptionally(new IllegalStateException("inference engine is closed"));
        } else {
            queue.add(new DecodeRequest(conversation, context.clone(), params, result));
        }
        return result.thenApplyAsync(g -> g);
    }

    /** The conversation is over: its KV slot is freed once its running generation, if any, ends. */
    public void release(String conversation) {
        releases.add(conversation);
    }

    /** Publishes a new adapter; it is used from the next decode step on (a later call before then supersedes it). */
    public void setAdapter(AdapterWeights weights) {
        pendingAdapter.set(weights);
    }

    /**
     * Completes once the engine decodes with an adapter of {@code version} or newer (at once if it already does):
     * a rollout that must not start on an older policy waits on it.
     */
    public CompletableFuture<Integer> whenAdapterAtLeast(int version) {
        VersionWaiter waiter = new VersionWaiter(version, new CompletableFuture<>());
        versionWaiters.add(waiter);
        releaseWaiters(); // the version may have arrived before the waiter was queued
        return waiter.reached().thenApplyAsync(v -> v);
    }

    private void releaseWaiters() {
        int current = adapterVersion;
        versionWaiters.removeIf(w -> w.version() <= current && w.reached().complete(current));
    }

    private record VersionWaiter(int version, CompletableFuture<Integer> reached) {
    }

    /** Version of the adapter the last step used (0 = base model). */
    public int adapterVersion() {
        return adapterVersion;
    }

    /** Forward passes (prefills and decode steps) run so far. */
    public long steps() {
        return steps;
    }

    /** The KV slots and what reusing them saved, as of the last step. */
    public DecoderStats stats() {
        return stats;
    }

    /** Whether the current adapter is merged into the weights (false also without an adapter). */
    public boolean adapterMerged() {
        return policy.model() != model;
    }

    private void run() {
        if (intraOpThreads > 0) {
            OpThreads.setIntraOp(intraOpThreads);
        }
        List<DecodeRequest> arrivals = new ArrayList<>();
        while (!closed) {
            try {
                applyPendingAdapter();
                for (String c = releases.poll(); c != null; c = releases.poll()) {
                    decoder.release(c);
                }
                if (decoder.activeCount() == 0) {
                    DecodeRequest first = queue.poll(50, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    arrivals.add(first);
                }
                queue.drainTo(arrivals, decoder.admissible() - arrivals.size());
                if (!arrivals.isEmpty()) {
                    decoder.admit(arrivals, policy); // one batched prefill for everyone who arrived
                    arrivals.clear();
                }
                decoder.step(policy);
                steps = decoder.stepCount();
                stats = decoder.stats();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.error("decode step failed; failing its sequences", e);
                arrivals.forEach(r -> r.result().completeExceptionally(e));
                arrivals.clear();
                decoder.failAll(e);
            } catch (Error e) {
                // the worker cannot go on (out of memory, a broken class): fail every request, now and later, rather
                // than leave them waiting for a thread that is gone
                LOG.error("inference engine stopped by an error; failing every request", e);
                closed = true;
                IllegalStateException stopped = new IllegalStateException("inference engine stopped: " + e, e);
                arrivals.forEach(r -> r.result().completeExceptionally(stopped));
                decoder.failAll(stopped);
                queue.forEach(r -> r.result().completeExceptionally(stopped));
                throw e;
            }
        }
        decoder.failAll(new IllegalStateException("inference engine closed"));
        queue.forEach(r -> r.result().completeExceptionally(new IllegalStateException("inference engine closed")));
    }

    private void applyPendingAdapter() {
        AdapterWeights w = pendingAdapter.getAndSet(null);
        if (w == null) {
            return;
        }
        try {
            if (adapter != null && adapter.config().equals(w.config())) {
                adapter.restore(w);
            } else {
                LoraAdapter fresh = LoraAdapter.fromWeights(w, model.config(), model.manager());
                if (adapter != null) {
                    adapter.close();
                }
                adapter = fresh;
            }
            Transformer previous = merged;
            if (model.mergedBytes(adapter) <= mergeLimitBytes) {
                merged = model.withAdapterMerged(adapter, model.manager());
                policy = new DecodingPolicy(merged, null, w.version());
            } else {
                merged = null;
                policy = new DecodingPolicy(model, adapter, w.version());
            }
            if (previous != null) {
                previous.close();
            }
            adapterVersion = w.version();
            releaseWaiters();
        } catch (RuntimeException e) {
            LOG.error("adapter version {} rejected, keeping version {}", w.version(), adapterVersion, e);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        decoder.close();
        if (merged != null) {
            merged.close();
        }
        if (adapter != null) {
            adapter.close();
        }
    }
}
