/**
 * The learn module: GRPO (clip-higher, truncated IS, k3 KL, entropy bonus, Dr.GRPO) and DPO/IPO and SFT losses
 * ({@code loss}), AdamW, gradient clipping, learning-rate schedules and the f16 loss scaler ({@code optim}),
 * {@code core.LearnerCore} (one training step over LoRA or full weights), traces as training rows ({@code batch}) and
 * checkpoints ({@code checkpoint}: {@code CheckpointStore} writes to a temporary file, syncs, renames and syncs the
 * directory). Its surface: modules/learn/API.md.
 */
package dev.toolcoach.learn;
