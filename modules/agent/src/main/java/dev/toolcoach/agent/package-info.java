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
 *
 * <p><b>Action formats</b> Each {@code ActionFormat} constant (with its name; {@code ActionFormat.named("hermes")}) has
 * its {@code ToolCallCodec} (strict and lenient reading, writing): {@code TaggedActionCodec} for Tool-N1 and its
 * compact-prompt variant, {@code HermesCodec} for Qwen's native calls, {@code Llama3JsonCodec} for Llama 3's,
 * {@code PhiFunctoolsCodec} for Phi-4-mini's {@code functools[...]}, {@code CodeActCodec} for code actions (a reply's
 * {@code <code>} program is one call of the {@code python} tool, run by {@code tools.codeact}). The codec is the one
 * reader and writer of action text for the agent, the OpenAI server, distillation and the BFCL checker; a new format is
 * a new constant with its codec here. A {@code RolloutRequest} may name its own tools ({@code tools}: the system
 * prompt, template and parser then offer only those; empty: the environment's), which
 * {@code TaskExample.rolloutRequest} fills from the example's tools; {@code RolloutSettings} is a training rollout's
 * temperature and limits (training config → {@code JobSpec} → {@code AgentConfig}). One {@code OutputCap} caps a
 * result's text, its structured output (replaced by the capped text when its JSON is longer) and its error, in the tool
 * executor and again in the agent's {@code ToolRunner} for any {@code ToolEnvironment}.
 *
 * <p><b>Exact tokens</b> The agent tokenises the rendered prompt once; afterwards the context grows by exactly the
 * generated ids and each observation tokenised on its own (loss mask 0). {@code TokenRecord} is what the learner trains
 * on. Parsing never throws: every completion becomes a {@code ParsedCompletion}, a bad one with a {@code ParseError}
 * kind that the trace records and the model is shown on its next turn.
 *
 * <p><b>Native action formats</b> Those with an {@code ActionFormat.templateSystemPrompt()} (Hermes, Llama 3 JSON) over
 * a chat format that has the model's template: the template offers the tools ({@code ToolSpec.functionSchema()}), the
 * reply goes back as an assistant message with its parsed {@code tool_calls} (content:
 * {@code ToolCallCodec.contentBesideCalls}; a reply without usable calls goes back as written), each result as a
 * {@code tool} message naming its tool (feedback on an unusable reply as a user message). The system message is the
 * format's short {@code templateSystemPrompt()}. After each turn the whole conversation is rendered with the generation
 * prompt; if that rendering starts with the text the model saw (its prompt and its exact generated tokens, decoded),
 * only the rest is tokenised and appended. If it does not (the template rewrote an earlier turn: Qwen3-style templates
 * drop old {@code <think>} content, a template may re-serialise a call differently), the next turn starts a new context
 * holding the new rendering: {@code TokenRecord.contextStarts} (JSON {@code context_starts}, written only when there is
 * more than one context; old traces read as one context) marks where. {@code maxTotalTokens} bounds each context. No
 * context is opened after the last turn. Tool-N1 (the finance job's format) stays on the incremental path with one
 * context; a chat format whose template rewrites replies ({@code appendsTurns()} false, e.g. Qwen3) runs native formats
 * only, and {@code AgentLoop} refuses any other by name. Teacher distillation ({@code TeacherGenerator}) reads tool
 * outputs from the tokens appended after a reply, so it fails with a clear message when the student's run starts a new
 * context.
 *
 * <p><b>Time limit</b> {@code AgentLoop.run(request, timeLimit)} stops a rollout still running when its limit passes
 * (the athletes' rollout deadline): {@code Episode} starts no further generation or tool call (the stage in flight may
 * still complete, and its result is dropped), the trajectory is released at once, so the tool environment cancels its
 * calls and the generator drops its state (an {@code InferenceEngine} frees the slot once a generation under way
 * ends), and the stage fails with a {@code TimeoutException}: a run cut off midway is no trace to learn from. The run's
 * end and its stop race for one flag, so the trajectory is released exactly once. The timer is cancelled when the run
 * ends first; {@code run(request)} has no limit.
 */
package dev.toolcoach.agent;
