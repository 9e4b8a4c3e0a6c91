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
 *   <li>{@link dev.toolcoach.agent.ActionFormat}s and their {@link dev.toolcoach.agent.ToolCallCodec}s: action text
 *       read (strictly by the {@link dev.toolcoach.agent.ActionParser}, leniently by servers and checkers) and written.</li>
 *   <li>{@link dev.toolcoach.agent.AgentLoop}: prompt, generate, parse, run tools, observe, until an
 *       answer or a limit, appending exact token ids and never re-tokenising the conversation.</li>
 * </ul>
 */
package dev.toolcoach.agent;
