/**
 * The model module: a DJL transformer for every {@code config.ModelFamily} (llama, qwen2, qwen3, mistral, phi3),
 * loaders (HF safetensors, llama2.c; {@code io}), tokenizers ({@code tokenizer}), a folder's chat template ({@code
 * io.ChatTemplates}; the renderer is modules/chat), LoRA and PEFT I/O ({@code lora}), the sampler with behaviour
 * log-probs ({@code generate}), the KV cache of slots ({@code nn}) and the continuous-batching {@code
 * engine.InferenceEngine} (conversations kept across turns, shared prompts, adapters merged per version). It knows
 * neither the agent nor Akka. This package holds what places and loads a model: the device, the precision, shared
 * bases and the PyTorch runtime.
 *
 * <p><b>The device</b> The device is a value, never a process-wide setting: {@code ComputeDevice} (cpu, cuda, cuda:N,
 * with its {@code Precision}) is chosen by {@code --device}/{@code --precision} on a command (coach-node's {@code
 * DeviceOption} mixin, checked while the command line is parsed, {@code value()}) or by {@code
 * toolcoach.device}/{@code toolcoach.precision} in a node's config (checked by {@code NodeRunCommand} at start, read
 * where a model is loaded: {@code NodeSettings.computeDevice(config)} for an athlete's engine and a coach's jobs), and
 * handed to what loads a model: {@code TrainingJobSpec.device} → {@code TrainingConfig.device} (the learner, an
 * embedded node, whose config gets it so its athletes share the learner's base, evaluations, distillation, helper
 * models), {@code LocalPolicy.load(..., device)}, {@code ModelLoader.shared(..., device)}. Every model, adapter and
 * learner manager is made by {@code ComputeDevice.newManager()}, so its tensors live there. The CPU is chosen
 * explicitly: on a CUDA build DJL's own default is the first GPU. The {@code -Pcuda} build leaves the CPU natives out
 * of the node jars and writes the flavour (cu128) to {@code native-flavor.properties}, which {@code ComputeDevice}
 * hands DJL ({@code PYTORCH_FLAVOR}) where no natives are on the class path.
 *
 * <p><b>One base per JVM</b> {@code ModelLoader.shared} keeps one base transformer per checkpoint and device in the
 * JVM ({@code SharedBases}, reference counted, keyed by the real path, the files' sizes and times and the device):
 * {@code LocalPolicy.load} (the athletes' engine, serve, eval) and the embedded run's learner ({@code TrainingRun})
 * hold the same arrays, each with its own adapter, and the KL reference is that base without an adapter. A shared base
 * stays frozen ({@code trainAllParameters} refuses; from-scratch and distillation students load their own with {@code
 * ModelLoader.load}). How a checkpoint is streamed in: {@code dev.toolcoach.model.io}.
 *
 * <p><b>Precision</b> {@code Precision} (f32, f16, bf16; {@code --precision}, {@code toolcoach.precision}, default
 * {@code auto}) is the type a frozen base computes in: {@code ModelLoader.shared} (the embedded run's learner and
 * engines, athletes, serve, eval) loads the base in it, weights, activations and KV cache; norms, softmax, the
 * adapter's delta and the logits stay f32 ({@code Transformer.inF32}), and the loss, the adapter and AdamW's state are
 * f32, as Transformers + peft train in mixed precision; an f16 base adds dynamic loss scaling ({@code
 * learn.optim.LossScaler}, as PyTorch's {@code GradScaler}: ×65536, halved on an overflowing update, which is skipped,
 * doubled after 2000 finite ones). A base trained whole ({@code ModelLoader.load}: from-scratch and distillation
 * students) is f32 always. {@code auto} is f32 on the CPU (measured through DJL 0.35.1 / PyTorch 2.7.1 CPU on this
 * machine, {@code x[rows, 896] @ w[896, 4864]}: f32 1.1 / 17.7 / 63 ms at 1 / 8 / 512 rows, f16 6.1 / 24.9 / 1,964 ms)
 * and on a GPU with DJL's own JNI, bf16 on a GPU with ToolCoach's JNI build (bf16 keeps f32's exponent range: no
 * overflow, no loss scaling, f16's tensor-core speed). DJL 0.35.1's own JNI cannot do 16-bit training: creating a bf16
 * tensor aborts the JVM (its dtype table stops at ordinal 8 and ends in a bare {@code throw;}), and its casts run
 * under {@code NoGradGuard}, so an adapter over a half base would get no gradient. Both are fixed in the vendored JNI
 * ({@code deploy/gpu/djl-jni/SOURCE.md}); {@code TorchRuntime} reads which JNI DJL loads and the install script's
 * marker beside it ({@code features=bf16,cast-gradient}), and probes the cast ({@code castsCarryGradient}: a backward
 * through f32→f16→f32) before {@code Transformer.hidden} lets an adapter train over a half base. {@code
 * ComputeDevice.precision} refuses f16/bf16 by name on DJL's own JNI; {@code Transformer.load} refuses a bf16 base
 * there. Checkpoints stay f32 (the scaler's state is not saved: a resume starts at 65536). Holders share a base only
 * when device and type agree ({@code HalfPrecisionTest}, {@code SourceJniPrecisionTest}, {@code coach-node doctor
 * --precision}).
 *
 * <p><b>An installed PyTorch</b> ({@code deploy/gpu/install-torch-jni.sh}, README "On a GPU"): the script reads the
 * torch folder's version and flavour from its files (never importing it), builds DJL's JNI from {@code
 * deploy/gpu/djl-jni} with torch's CMake config (or against its folders; a build is kept in a per-machine cache keyed
 * by torch version, ABI, vendored source, build flags and compiler, and reused for another prefix), installs it as
 * {@code ENGINE_CACHE_DIR/pytorch/<version>-<flavor>-linux-x86_64/0.35.1-libdjl_torch.so} with the marker, and writes
 * {@code torch.env} ({@code PYTORCH_LIBRARY_PATH}, {@code PYTORCH_VERSION}, {@code PYTORCH_FLAVOR}, {@code
 * ENGINE_CACHE_DIR}, {@code PYTORCH_LIBRARY_EXCLUSION}, for CUDA {@code TOOLCOACH_CUDART_DIR} and {@code
 * LD_LIBRARY_PATH}); {@code ComputeDevice.available} hands {@code TOOLCOACH_CUDART_DIR} to JNA before DJL's GPU count,
 * {@code cluster.sh} sources {@code TOOLCOACH_TORCH_ENV} for its nodes. The doctor ({@code coach-node
 * doctor}, its checks in coach-node's {@code TorchDoctor}) reports it all and checks a matmul, the fused attention
 * ({@code nn.ScriptedOps}' TorchScript module, which
 * every prefill and scoring pass runs) and a half base (its logits and gradient compared at the positions the mask
 * keeps: a padding row attends to nothing, and what the kernel fills it with differs by type). {@code
 * InstalledTorchIT} (deploy) runs the whole path in CI against the pip CPU wheel in {@code /opt/wheels} (the venv and
 * the JNI made once per machine in the user's cache). {@code deploy/gpu/gpu-check.sh} runs every GPU check in one
 * script from a kit of at most 64 MiB ({@code deploy/gpu/make-kit.sh}: a jlink'd JRE with the font stack its drawing
 * links and two fonts, a GPU image may have neither, and the thin jars a rehearsal saw loaded, {@code
 * deploy/gpu/kit-jars.txt}, without DJL's natives).
 */
package dev.toolcoach.model;
