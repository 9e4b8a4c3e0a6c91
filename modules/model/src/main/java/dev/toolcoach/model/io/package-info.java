/**
 * Checkpoints on disk: Hugging Face folders (safetensors) and llama2.c files, read and written.
 * <ul>
 *   <li>One RoPE convention inside the model: Hugging Face's rotate-half. llama2.c checkpoints pair adjacent
 *       dimensions, so their q/k weights are permuted at load; both kinds of checkpoint give the same logits.</li>
 *   <li>bf16 and f16 weights are decoded to f32 in Java before any NDArray exists (then cast to the base's
 *       {@code Precision}); DJL 0.35.1's own JNI aborts the JVM on bf16 tensors, and {@code NDArray.set} copies a
 *       decoded block into place.</li>
 *   <li>{@code CheckpointLayout} maps a family's tensor names onto the one internal layout ({@code HfNames}: Phi-3's
 *       fused {@code qkv_proj} and {@code gate_up_proj} are split on load and fused on save); {@code HfModelFolder}
 *       refuses a missing, unexpected or misshapen tensor naming its file.</li>
 *   <li>Loading streams. {@code HfModelFolder.locate} / {@code Llama2cCheckpoint.locate} check a checkpoint whole
 *       (config, names, dtypes, shapes, byte ranges) and say where each tensor is ({@code StoredTensor}) without
 *       reading a weight; {@code Transformer.load} then reads 4 MiB blocks ({@code TensorReader}: positional reads into
 *       one reused direct buffer; not a mapping, whose pages would count in the process's RSS until the GC unmaps
 *       them), decodes them to f32 in Java and copies each into its place in the fused, transposed device array. The
 *       Java heap never holds a weight and the process never a second copy: an 84 MB folder loads under {@code -Xmx32m}
 *       ({@code StreamedLoadTest}), values and layout bit-identical to the heap path. Sharing one base per JVM is
 *       {@code dev.toolcoach.model.ModelLoader.shared}'s.</li>
 *   <li>{@code ModelDigest}: SHA-256 over the config, weight, tokenizer and chat-template files (how an athlete checks
 *       that its folder holds the job's model).</li>
 * </ul>
 */
package dev.toolcoach.model.io;
