/**
 * Prometheus metrics of a node.
 * <ul>
 *   <li>{@code ToolCoachMetrics}: one Prometheus registry per actor system, an Akka extension other modules register
 *       on.</li>
 *   <li>{@code WireMetrics}: {@code toolcoach_messages_total{direction,kind}} and
 *       {@code toolcoach_message_bytes_total{direction,kind}} (counted in the serializers: sent = serialized, received
 *       = deserialized).</li>
 *   <li>{@code ClusterMembersGauge}: {@code toolcoach_cluster_members{role,status}}.</li>
 *   <li>{@code MetricsRouteProvider} ({@code /metrics}: Prometheus text 0.0.4), {@code PrometheusText}.</li>
 *   <li>{@code ToolUseMetrics}: TILE's per-tool figures where a learner runs:
 *       {@code toolcoach_tile_tool_calls{tool,outcome}}, {@code toolcoach_tile_tool_retries{tool}},
 *       {@code toolcoach_tile_tool_repeats{tool}}.</li>
 * </ul>
 *
 * <p><b>What /metrics shows</b> Every node: the above, the JVM memory metrics
 * ({@code jvm_memory_used_bytes{area="heap"}}, ...), the process's ({@code process_resident_memory_bytes}, ...) and
 * {@code toolcoach_memory_limit_bytes} (the container's limit, else the machine's: what the resident size is held
 * against).
 * <ul>
 *   <li>On a coach node that runs jobs: {@code toolcoach_job_state{job,state}} (1 for the current or last job's state,
 *       {@code brain.jobcontroller.JobStateMetrics}).</li>
 *   <li>Where a job's coach and learner run (the coach node): {@code toolcoach_coach_*} (groups by event and drop
 *       reason, rollouts by event, in flight, queued, policy version) and {@code toolcoach_learner_*} (steps, traces,
 *       groups a step took by disposition, groups dropped by reason, waiting groups, policy version, last mean reward,
 *       training, finished).</li>
 *   <li>On tool nodes: {@code toolcoach_tool_*} ({@code dev.toolcoach.cluster.toolserver}).</li>
 *   <li>On athlete nodes serving a job ({@code job.EngineMetrics}): {@code toolcoach_engine_adapter_version} (the
 *       adapter the engine decodes with, 0 = base model) and {@code toolcoach_engine_adapter_swapped_seconds} (Unix
 *       time of that swap), so a policy's spread can be followed, and the engine's KV cache:
 *       {@code toolcoach_engine_kv_slots}, {@code _kv_slots_decoding}, {@code _kv_slots_parked},
 *       {@code _kv_cache_bytes}, and the counters {@code toolcoach_engine_prefill_tokens_total},
 *       {@code _reused_tokens_total} (held by a conversation's own slot), {@code _shared_tokens_total} (copied from
 *       another slot's prefix), {@code _kv_evictions_total}, {@code _decode_rows_total}, {@code _idle_rows_total}.</li>
 *   <li>On nodes with ADAPT preferences ({@code dev.toolcoach.cluster.tile}):
 *       {@code toolcoach_tile_preference_alpha|beta{context,tool}} and
 *       {@code toolcoach_tile_competence{context,tool}}.</li>
 * </ul>
 *
 * <p><b>Scraping and alerts</b> {@code deploy/monitoring} holds a Prometheus configuration for the local cluster
 * (file-based discovery of the targets {@code cluster.sh} writes to {@code prometheus-targets.json} in its run folder
 * as nodes start and stop, labelled {@code node} and {@code node_role}) and one for the Kubernetes pods
 * ({@code prometheus-k8s.yml}; Debian's Prometheus has no Kubernetes discovery, so only its YAML is checked), and
 * {@code alerts.yml} with its promtool unit tests ({@code alerts-test.yml}, run by {@code deploy}'s
 * {@code MonitoringRulesTest}); {@code LocalClusterScriptIT} runs a real Prometheus against a real cluster and sees the
 * node-down alert fire for a SIGSTOPped athlete and resolve after SIGCONT.
 */
package dev.toolcoach.cluster.metrics;
