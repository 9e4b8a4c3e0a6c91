/**
 * Benchmarks: JMH and bench mains; {@code -Pbench} builds benchmarks.jar; never run by {@code mvn verify}
 * (modules/bench/README.md has the figures). Among them: the recipe benchmark ({@code learning.FinanceRecipeBench}: the
 * scratch recipe on finance through {@code brain.run.SyncGrpo}); the training-modes benchmark
 * ({@code learning.TrainingModesBench}: a warmed-up run's GRPO phase async, sync and behind a turn barrier, with
 * rollouts/s and the learner's idle share); the rollout-modes benchmark ({@code rollout.RolloutModesBench}: scripted
 * replies with and without {@code brain.run.TurnBarrier}); the cluster benches ({@code cluster.ClusterScalingBench}, {@code cluster.AdapterBroadcastBench}), the
 * serializer benchmark ({@code serialization.SerializerBenchmark}) and the Qwen2.5-0.5B-shape memory bench
 * ({@code model.QwenShapeBench}).
 */
package dev.toolcoach.bench;
