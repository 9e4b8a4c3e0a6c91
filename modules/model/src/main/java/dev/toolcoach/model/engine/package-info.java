/**
 * The inference engine. One {@code InferenceEngine} per node (athletes' {@code AthleteHost}, {@code serve},
 * evaluations) owns a decode thread and a {@code generate.BatchDecoder}: continuous batching over a KV cache of slots
 * ({@code nn.KvSlots}: per layer, keys and values [slots, kvHeads, capacity, headDim] in the model's compute type, one
 * sequence per slot, its columns from 0). A request is a context, its sampling, and optionally the conversation it
 * extends ({@code GenerationRequest.trajectoryId}, passed by {@code policy.LocalGenerator}; the agent releases it when
 * its episode ends, {@code Generator.release}).
 * <ul>
 *   <li><b>Placing a request</b> ({@code BatchDecoder.place}): the conversation's own parked slot keeps every column
 *       the new context still shares with it (a turn prefills only its observation and the template's markers: exactly
 *       the tokens the trace records; a template that rewrote an earlier turn keeps the common prefix and prefills the
 *       rest); else a parked slot of no conversation holding a long prefix is taken over in place; else a free slot (or
 *       the least recently used parked one, evicted: {@code toolcoach_engine_kv_evictions_total}) into which the
 *       longest prefix any slot computed with the current adapter version is copied ({@code KvSlots.copyPrefix}, at
 *       least {@code MIN_SHARED_PREFIX} = 16 tokens). Requests of one admission with the same context (a GRPO group's G
 *       rollouts) are prefilled once and copied. At least the context's last token is always prefilled, for its logits.
 *       A slot's own conversation is reused across adapter versions (as a reply decoded across a swap is: the behaviour
 *       log-probs are what was sampled); another slot's prefix only when every column was computed by the current
 *       version.</li>
 *   <li><b>A step</b>: one batched forward over slots 0..n-1 (n one past the highest decoding slot): a decoding row
 *       feeds its last token at its own column; parked or free slots below ride along idle (they write one unused
 *       column past their length and see only column 0). New keys are written with one indexed put per layer; attention
 *       reads a view of the rows' columns up to the longest row ({@code StepInputs.slotted} builds tokens, positions,
 *       write columns and the mask on the host). Prefills are batched forwards of ragged rows (right-padded, each its
 *       own start), reading a gathered copy of their slots. Nothing of another row is ever moved; capacity grows in
 *       chunks of 64 columns (the one copy of every slot).</li>
 *   <li><b>Adapters</b> ({@code InferenceEngine.setAdapter}, swapped only between decode steps): merged into a copy of
 *       the projections they target, W + scale·A·B once per version ({@code Transformer.withAdapterMerged}; the
 *       shared base stays intact for the learner and the reference policy), when that copy is at most 512 MiB on the
 *       CPU or 8 GiB on a GPU; else applied at every step. The engine records, per generated token, the adapter version
 *       that produced it; cached keys/values of a running sequence are kept across a swap.</li>
 *   <li><b>Attention</b>: prefill and scoring (and training) go through PyTorch's fused scaled dot-product attention
 *       ({@code nn.ScriptedOps}: a TorchScript module compiled from its source at first use, which DJL runs, with
 *       autograd when it records; the profiling executor off per thread); a decode step (one token a row) runs a kv
 *       head's whole query group as one plain matmul, since the fused CPU kernel would take every head's single query
 *       as a matrix-vector product, one BLAS call per row and head (MKL's generic one on AMD CPUs).</li>
 *   <li>The learner scores a micro-batch whose rows begin alike (a GRPO group's rollouts share their prompt; an SFT
 *       batch its system prompt) with that prefix computed once ({@code LearnerCore.scores},
 *       {@code Transformer.hiddenAfterSharedPrefix} over {@code nn.SharedPrefixInputs}: the prefix as one row, every
 *       row's later tokens attending to its keys), up to the first position any row trains on; the same hidden states
 *       and adapter gradients as row by row ({@code SharedPrefixTest}), 13% less of the learner's CPU in the GRPO
 *       phase.</li>
 *   <li>Failures: a request with an invalid context, or whose prefill fails, fails alone; a sequence whose sampling
 *       throws fails alone; a failed decode forward fails the sequences of that batch (their state is unknown).</li>
 * </ul>
 *
 * <p>Trap: a DJL op's result joins its first operand's manager. Anything derived from a long-lived array (a batch's KV
 * cache) must be moved to the step's scope, or every decode step leaves it behind: a cached keys' transpose once leaked
 * gigabytes a minute under continuous batching ({@code InferenceEngineTest} guards it); {@code KvSlots} moves every
 * view and gather of its arrays to the step's scope, and replaces its arrays (growing) in a fresh manager.
 */
package dev.toolcoach.model.engine;
