/**
 * A local model as the agent's model. The model module (engine, tokenizers, whole-conversation {@code ChatTemplate}s)
 * and the agent module (its incremental {@code ChatFormat} and async {@code Generator} interfaces) do not know each
 * other; both speak {@code lm}'s {@code SamplingParams}, {@code Generation}, {@code FinishReason} and
 * {@code Tokenizer}, and this package joins them; it is the one place that adapts the agent to the engine.
 * {@code LocalPolicy.load(model, tokenizer, adapter, maxBatch)} (or {@code LocalPolicy.of(PolicyModel, maxBatch)}) owns
 * one {@code InferenceEngine} and hands out:
 * <ul>
 *   <li>{@code tokenizer()}: the model's own {@code ModelTokenizer} (an {@code lm.Tokenizer}; an HF one knows its
 *       special tokens, the {@code added_tokens} marked special).</li>
 *   <li>{@code PolicyChatFormat}: the agent's incremental pieces cut out of whole renderings of a probe conversation by
 *       the model's own template (ChatML, Llama 3 or the folder's Jinja, e.g. Qwen2.5-Instruct's), so appending them
 *       equals re-rendering. The end-of-turn marker names the stop token ({@code <|im_end|>}, {@code <|eot_id|>});
 *       {@code closeReply(true)} is what follows it. A marker without a special token falls back to the model's EOS
 *       ids. Tool outputs go back as a user turn of {@code <tool_response>} blocks; a result named by its tool
 *       ({@code Message.toolResult}, as formats with results in the tool role send it) goes to the template's own tool
 *       role. {@code template()} hands the agent the whole template ({@code agent.ConversationTemplate}: messages,
 *       tools as OpenAI function schemas, generation prompt → {@code chat.TemplateInput}) for native action
 *       formats; {@code appendsTurns()} is false for a template that rewrites a reply (Qwen3 writes a thinking block
 *       into the last one), which then runs native formats only.</li>
 *   <li>{@code NativeActionFormat}: the action format a model speaks by default: its family's native tool-call format
 *       ({@code ModelFamily.toolCallFormat()}, mapped to a codec by {@code ActionFormat.find}: {@code hermes} for
 *       qwen2/qwen3, {@code llama3-json} for llama, {@code phi} for phi3) when the folder has its own chat template,
 *       else Tool-N1 (llama2.c checkpoints, scratch models, and mistral, whose format has no codec yet). {@code serve},
 *       {@code distill}, {@code bfcl-eval} and the Brain take it unless given another by name.</li>
 *   <li>{@code LocalGenerator}: context ids straight to the engine (the agent's {@code SamplingParams} plus the model's
 *       stop tokens), the engine's {@code DecodedSequence} ids, behaviour log-probs, per-token policy versions
 *       ({@code int}, as in traces) and finish reason straight back as a {@code Generation}; its text excludes the stop
 *       token. A prompt longer than the model's context is refused before the engine ({@code lm.ContextTooLong}), so it
 *       fails alone.</li>
 * </ul>
 *
 * <p>Its tests write their model with the testkit's {@code TinyChatModel}.
 */
package dev.toolcoach.policy;
