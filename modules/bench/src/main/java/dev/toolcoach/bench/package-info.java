/**
 * Benchmarks: JMH and bench mains; {@code -Pbench} builds benchmarks.jar; never run by {@code mvn verify}
 * (modules/bench/README.md has the figures). Among them: the recipe benchmark ({@code learning.FinanceRecipeBench}: the
 * scratch recipe on finance through {@code brain.run.SyncGrpo}); the synchronous multi-turn rollout the rollout-modes
 * benchmark compares with ({@code rollout.TurnBarrier}: a turn barrier, optionally held replies, as a {@code Generator}
 * wrapper); the cluster benches ({@code cluster.ClusterScalingBench}, {@code cluster.AdapterBroadcastBench}), the
 * serializer benchmark ({@code serialization.SerializerBenchmark}) and the Qwen2.5-0.5B-shape memory bench
 * ({@code model.QwenShapeBench}).
 */
package dev.toolcoach.bench;
