/**
 * OpenAI-compatible chat completions: the wire types (records named after OpenAI's objects), a
 * client ({@link dev.toolcoach.openai.OpenAiClient}: retries on 429/5xx honouring Retry-After, a cap
 * on requests in flight, streaming over server-sent events, errors by kind) and a server
 * ({@link dev.toolcoach.openai.OpenAiServer}, Akka HTTP) in front of a
 * {@link dev.toolcoach.openai.ChatBackend}. The server maps OpenAI tool calls to and from the
 * Tool-N1 action format; {@link dev.toolcoach.openai.GeneratorBackend} serves a local model through
 * the agent's Generator and ChatFormat and lm's Tokenizer.
 */
package dev.toolcoach.openai;
