/**
 * What a run records, with no Akka and no DJL: {@code Trace} (with {@code offered_tools}: what the rollout was offered;
 * absent in older traces), {@code Turn}, {@code ParsedCompletion}, {@code ToolCall}, {@code ToolResult},
 * {@code TokenRecord} (every token as generated, with its behaviour log-prob and policy version), JSON Lines I/O
 * ({@code JsonLines}, {@code TraceJson}), {@code TracePrinter} and {@code TraceHtml} (the offline viewer page); TILE's
 * tool-use record is {@code tooluse}.
 * <ul>
 *   <li>{@code JsonLines.write} appends go out in one write and are synced; dataset loaders ({@code JsonLines.read})
 *       skip bad lines with reasons, and a line that is not UTF-8 is a counted skip too.</li>
 *   <li>{@code TraceHtml}: one offline page, trace text carried as JSON with {@code <}, {@code >} and {@code &} escaped
 *       inside a {@code script} element of type {@code application/json} and only ever set as text; a CSP that forbids
 *       every load.</li>
 *   <li>{@code UntrustedJson}: JSON from outside is read through it. One non-recursive pass of Jackson's tokenizer
 *       rejects nesting past the limit before any recursive reader or writer sees it (Jackson 2.13, pinned by Akka, has
 *       no {@code StreamReadConstraints}), and {@code UntrustedJson.reason} describes a failure in one line by column
 *       (and line, past the first) or field path without quoting the input or naming a Java type, and a value one of
 *       our types refuses by that type's own message at its path ({@code recipe: recipe field groupSize must be at
 *       least 1, was -2}). Read through it: the {@code /jobs} body, a {@code --recipe} file, a run's
 *       {@code config.json}, a model folder's JSON files, a {@code render} conversation, the OpenAI server's
 *       requests.</li>
 * </ul>
 */
package dev.toolcoach.trace;
