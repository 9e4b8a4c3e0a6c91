package dev.toolcoach.cluster.management;

import com.typesafe.config.Config;
import dev.toolcoach.openai.http.BearerToken;
import dev.toolcoach.openai.http.LoopbackOrigin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;

/**
 * Who may change state through a node's management port. Every request but {@code GET}, {@code HEAD} and
 * {@code OPTIONS} changes something (a job started or cancelled, a skill approved, and Akka Management's own
 * {@code PUT}/{@code DELETE /cluster/members}: a Leave stops the node), so each needs {@code Authorization: Bearer
 * <toolcoach.management.token>} when a token is set (401 otherwise); without one it is taken only while the port is
 * bound to loopback (403 otherwise), and then only from this machine's own clients ({@link LoopbackOrigin}: no page a
 * browser shows may post to it, no DNS rebinding; 403). Akka Management's endless event stream
 * ({@value #ENDLESS_STREAM}) is served only to the token's holder.
 *
 * @param token    the management token, empty for none
 * @param loopback whether the management port is bound to a loopback address
 */
public record ManagementWrites(String token, boolean loopback) {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    /**
     * Akka Management's event stream, which never ends: open to anyone, a few hundred of them would hold every connection
     * a client address (all of loopback) may have, and the readiness probe with them.
     */
    static final String ENDLESS_STREAM = "/cluster/domain-events";

    /** A refused request: the HTTP status and why. */
    public record Refusal(int status, String message) {
    }

    /** {@code toolcoach.management.token} and whether {@code bindHost} is loopback. */
    public static ManagementWrites fromConfig(Config config, String bindHost) {
        return new ManagementWrites(config.getString("toolcoach.management.token"), isLoopback(bindHost));
    }

    /**
     * Why the request is refused, or empty when it may go on.
     *
     * @param port the port the management server is bound to (its Host must name it)
     */
    public Optional<Refusal> refusal(String method, String path, Optional<String> authorization, Optional<String> host,
                                     Optional<String> origin, int port) {
        if (path.endsWith(ENDLESS_STREAM)) {
            if (token.isEmpty()) {
                return Optional.of(new Refusal(403, ENDLESS_STREAM + " streams without end: it is served only with a "
                        + "toolcoach.management.token (TOOLCOACH_JOBS_TOKEN), to its holder; /cluster/members tells the members"));
            }
            return BearerToken.matches(authorization.orElse(null), token) ? Optional.empty() : Optional.of(new Refusal(401,
                    authorization.isEmpty() ? "no token given (Authorization: Bearer <toolcoach.management.token>)" : "invalid token"));
        }
        if (SAFE_METHODS.contains(method)) return Optional.empty();
        if (!token.isEmpty()) {
            if (BearerToken.matches(authorization.orElse(null), token)) {
                return Optional.empty();
            }
            return Optional.of(new Refusal(401, authorization.isEmpty()
                    ? "no token given (Authorization: Bearer <toolcoach.management.token>)" : "invalid token"));
        }
        if (!loopback) {
            return Optional.of(new Refusal(403, "no toolcoach.management.token is set (TOOLCOACH_JOBS_TOKEN), so this node "
                    + "changes nothing through its management port unless it is bound to loopback"));
        }
        return LoopbackOrigin.refusal(host, origin, port).map(why -> new Refusal(403, why));
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
