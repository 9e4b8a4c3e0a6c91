/**
 * What every ToolCoach HTTP server shares ({@code serve}, every management port, {@code tool-node mcp} over HTTP).
 * <ul>
 *   <li>{@code LoopbackOrigin}: the Host/Origin rule of credential-free loopback: a loopback {@code Host} and no
 *       foreign {@code Origin}, else 403 (no CSRF from a page a browser shows, no DNS rebinding).</li>
 *   <li>{@code BearerToken}: every bearer check ({@code serve}, a management port's writes, MCP) goes through it: the
 *       scheme in any case (RFC 7235), the token in constant time.</li>
 *   <li>{@code GuardedServer}: a route bound with {@code ConnectionGate} (limits in all and per address, the oldest
 *       idle connection making room), {@code HeadWatchdog} (a whole request head in time) and a body deadline, set by
 *       {@code toolcoach.http} ({@code ConnectionLimits}): 1,024 connections in all and 128 per client address, at a
 *       limit the oldest one without a request in progress closed to make room (refused only when all are busy); a
 *       connection with no request in progress must send a whole head within 10 s, a request its body within 30 s
 *       (408); credentials are checked on the request head before any body is read ({@code GuardedServer.bind(...,
 *       credentials)}).</li>
 *   <li>{@code ClientErrorLogLimit}: malformed requests are not logged one by one ({@code error-logging-verbosity =
 *       off}, and this logback turbo filter in the programs' configurations passes Akka HTTP's per-request "Illegal
 *       request" warnings (400, 408) and its 500 for an HTTP/1.0 request with a chunked body (raised inside Akka HTTP
 *       10.2's pipeline, before any handler, so its status stays 500) once a minute with a count of those held
 *       back).</li>
 * </ul>
 */
package dev.toolcoach.openai.http;
