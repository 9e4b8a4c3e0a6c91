/**
 * TILE's ADAPT, as plain classes: {@code ToolPreferences} (a Beta per context and tool; {@code Competence} report),
 * {@code EquivalentTools} (groups of tools that can stand for each other), {@code AdaptSettings},
 * {@code PreferenceFile}, {@code Experience} (successes and failures) and {@code AdaptiveToolEnvironment}, which the
 * Brain's evaluation and, through {@code JobSpec.adapt} ({@code AdaptSpec}), the athletes' {@code AthleteHost} wrap
 * around their tools: routing a call to a group by Thompson sampling, or, with {@code AdaptSettings.hint}, offering
 * every tool and returning a per-rollout hint through {@code ToolEnvironment.promptHint}, which {@code AgentLoop}
 * appends to the rollout's system prompt. Outcomes are observed and drained into the preferences, whose base is
 * replicated across nodes ({@code cluster.tile}).
 *
 * <p>Retirement counts episodes per node only, on purpose: "unused for N episodes" needs an order of episodes, and
 * counters give none across nodes (a node's "episode at last use" is in its own numbering, and a replicated one would
 * be read against a lagging view of the others' counts); the flag is reported ({@code coach-node tools preferences}),
 * never applied, and says what this node's agents do, while the competence it is gated on (C &lt; 0.3) is the
 * replicated one.
 */
package dev.toolcoach.agent.adapt;
