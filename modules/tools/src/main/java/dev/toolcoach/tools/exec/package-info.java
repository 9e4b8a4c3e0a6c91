/**
 * {@code ToolExecutor}: runs a suite's calls on a pool with a timeout, an output cap, per-trajectory state and metrics
 * ({@code ToolMetrics}, {@code TrajectoryState}, {@code ExecutorSettings}); a tool server owns one per suite.
 *
 * <p>A call's deadline counts from its submission, so a call waiting behind busy threads times out too (and leaves the
 * queue); a call still running at its deadline is answered TIMEOUT, interrupted and abandoned: its thread is replaced
 * by a new one, at most {@code max-abandoned-threads} at a time ({@code toolcoach_tool_threads_abandoned{suite}}), so
 * tools that ignore interrupts cannot take the pool; the pool shrinks back when they return. Releasing a trajectory
 * (its rollout is over) cancels its calls still waiting or running the same way (status CANCELLED), so no CPU goes to
 * a rollout no one reads; each call's thread CPU time is counted per tool. One
 * {@code agent.OutputCap} caps a result's text, its structured output (replaced by the capped text when its JSON is
 * longer) and its error, here and again in the agent's {@code ToolRunner}. {@code replaceSuite} swaps the suite (e.g.
 * with newly approved skills): calls already accepted finish on the tools they started with.
 */
package dev.toolcoach.tools.exec;
