/**
 * The management port's server and its write guard.
 * <ul>
 *   <li>{@code ManagementServer}: the management port: Akka Management's collected routes, served here (rather than
 *       through {@code AkkaManagement.start()}) so that every state-changing request passes {@code ManagementWrites}
 *       first. Bound as {@code serve} is ({@code GuardedServer}, {@code toolcoach.http}): connections in all and per
 *       address, head and body timeouts, credentials checked on the head before a body is read.</li>
 *   <li>{@code ManagementWrites}: every request but GET/HEAD/OPTIONS (the job and skill routes, Akka Management's own
 *       {@code PUT}/{@code DELETE /cluster/members/...}, Leave and Down, present while read-only is off) needs
 *       {@code Authorization: Bearer <toolcoach.management.token>} ({@code TOOLCOACH_JOBS_TOKEN}) when a token is set,
 *       401 otherwise; without a token it is taken only while management is bound to loopback (403 otherwise) and only
 *       with a loopback {@code Host} and no foreign {@code Origin} ({@code openai.http.LoopbackOrigin}, 403: no CSRF
 *       from a page a browser shows, no DNS rebinding). Akka Management's endless {@code /cluster/domain-events} stream
 *       goes only to the token's holder (403 with no token set, 401 without it). Read-only status routes ({@code GET
 *       /jobs}, {@code GET /skills}, {@code /dashboard}, {@code /ready}, {@code /alive}, {@code /metrics},
 *       {@code /cluster/members}) need no credentials and show run figures and names, never trace text or files.</li>
 * </ul>
 */
package dev.toolcoach.cluster.management;
