/**
 * The transformer. One {@code Transformer} forward runs every family: explicit {@code head_dim}, q/k/v and o biases,
 * Qwen3's per-head q/k RMSNorm, partial rotary, the sliding window in the host-built mask (prefill and cached decode
 * alike). {@code KvSlots} is the engine's KV cache (see {@code dev.toolcoach.model.engine}); {@code ScriptedOps} the
 * fused attention (a TorchScript module); {@code SharedPrefixInputs} a micro-batch's shared prefix; {@code StepInputs}
 * the host-built tokens, positions and masks; {@code NoGrad} the guard for in-place weight updates.
 *
 * <p>LoRA is passed to each forward call, not patched into the weights: the KL/DPO reference policy is the same model
 * called without the adapter, with no second copy of the weights (the engine merges an adapter into a copy of the
 * projections it targets for decoding, {@code Transformer.withAdapterMerged}, leaving the shared base intact).
 *
 * <p>The forward is checked against an independent reference in the model module's tests
 * ({@code dev.toolcoach.model.reference}): {@code TinyHfFolders} writes tiny random llama/qwen2/qwen3/mistral/phi3
 * folders in exact Hugging Face layout (rope variants, v4 and v5 config styles), {@code ReferenceDecoder} computes
 * their logits in plain float64 following Transformers' modeling code ({@code ReferenceConfig}, {@code RopeParameters}
 * read the config as Transformers' config classes and {@code modeling_rope_utils} do). {@code nn.FamilyReferenceTest}
 * holds the production forward to it for every family and rope type: whole-prompt logits and prefill + cached decode,
 * batched with a left-padded row, within 1e-4 of the logits' scale.
 */
package dev.toolcoach.model.nn;
