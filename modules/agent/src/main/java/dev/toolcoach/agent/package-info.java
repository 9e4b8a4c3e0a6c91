/**
 * The agent: the loop that lets a model act with tools and records every step in a
 * {@link dev.toolcoach.trace.Trace}.
 *
 * <ul>
 *   <li>Model side, implemented by the model module or an engine over the cluster:
 *       {@link dev.toolcoach.lm.Tokenizer}, {@link dev.toolcoach.agent.ChatFormat},
 *       {@link dev.toolcoach.agent.Generator}.</li>
 *   <li>Tool side, implemented by the tools module or tool servers over the cluster:
 *       {@link dev.toolcoach.agent.ToolEnvironment} offering {@link dev.toolcoach.agent.ToolSpec}s.</li>
 *   <li>{@link dev.toolcoach.agent.ActionParser}: completion text to action, total.</li>
 *   <li>{@link dev.toolcoach.agent.AgentLoop}: prompt, generate, parse, run tools, observe, until an
 *       answer or a limit, appending exact token ids and never re-tokenising the conversation.</li>
 * </ul>
 */
package dev.toolcoach.agent;
