/**
 * OpenAI-compatible chat completions: the wire types (records named after OpenAI's objects), a
 * client ({@link dev.toolcoach.openai.OpenAiClient}: retries on 429/5xx honouring Retry-After, a cap
 * on requests in flight, streaming over server-sent events, errors by kind) and a server
 * ({@link dev.toolcoach.openai.OpenAiServer}, Akka HTTP) in front of a
 * {@link dev.toolcoach.openai.ChatBackend}. The server maps OpenAI tool calls to and from the
 * backend's action format through its codec (tools to {@code tool_calls}, tool messages named);
 * {@link dev.toolcoach.openai.GeneratorBackend} serves a local model through the agent's Generator and
 * ChatFormat and lm's Tokenizer.
 *
 * <p><b>Serving (coach-node serve)</b>
 * <ul>
 *   <li>Credentials: {@code Authorization: Bearer K} on every endpoint when a key is set ({@code --api-key}, else
 *       {@code TOOLCOACH_SERVE_API_KEY}, else {@code toolcoach.openai.server.api-key}; compared in constant time,
 *       {@code http.BearerToken}), 401 otherwise; the key is checked on the request head before any body is read
 *       ({@code GuardedServer.bind(..., credentials)}). Without a key the server refuses to bind anything but loopback
 *       ({@code ServerSettings.checkExposure}, exit 2), answers only this machine's own clients
 *       ({@code http.LoopbackOrigin}: loopback {@code Host}, no foreign {@code Origin}; 403) and {@code serve} warns
 *       that any local user can call it.</li>
 *   <li>Body 4 MiB (413, {@code OpenAiServer.MAX_REQUEST_BODY}); JSON nesting 64, in the body and in JSON inside
 *       strings ({@code tool_calls[].function.arguments}), 400.</li>
 *   <li>Sampling values are checked where they enter ({@code RequestedSampling}: NaN, infinities, out of range: 400
 *       naming the field; {@code SamplingParams} refuses NaN and infinities too, so no such value reaches an engine).
 *       The server applies {@code stop} to the reply and refuses what it does not return ({@code n} other than 1,
 *       {@code logprobs}, {@code top_logprobs}: 400, {@code ChatCompletions.read}).</li>
 *   <li>A prompt longer than the model's context is a 400 with OpenAI's code {@code context_length_exceeded}
 *       ({@code lm.ContextTooLong}: {@code LocalGenerator} refuses it before the engine, so it fails alone;
 *       {@code OpenAiClient} reads it as {@code CONTEXT_LENGTH_EXCEEDED}, which a distillation teacher counts against
 *       that rollout only, not as an unusable teacher; a stream starts only once the backend has accepted the
 *       request).</li>
 *   <li>Any {@code Throwable} while handling a request is a 500 (streamed: an error event), never reaching Akka's
 *       fatal-error handler, which would end the JVM; error messages never quote the request nor name a Java class
 *       ({@code UntrustedJson.reason}; a 500 says only that the request or generation failed, the log the rest).</li>
 *   <li>Connections: see {@code dev.toolcoach.openai.http}.</li>
 * </ul>
 */
package dev.toolcoach.openai;
