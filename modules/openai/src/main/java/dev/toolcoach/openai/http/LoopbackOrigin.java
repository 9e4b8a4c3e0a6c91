package dev.toolcoach.openai.http;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rule every ToolCoach server that takes requests without credentials because it listens on loopback only applies
 * to them ({@code serve} without a key, the management port's state-changing routes without a token,
 * {@code tool-node mcp} without a token): the request must come from this machine's own clients, not from a web page
 * a browser on this machine shows.
 * <ul>
 *   <li>its {@code Host} names this loopback endpoint ({@code localhost} or a loopback address, {@code 127.x.y.z} or
 *       {@code [::1]}, with this port): a page that reaches 127.0.0.1 through a DNS name it rebinds sends its own name
 *       (DNS rebinding);</li>
 *   <li>its {@code Origin}, which browsers send with every cross-site POST (a plain form or {@code text/plain} fetch needs
 *       no preflight), is absent (curl, SDKs) or such an endpoint too (CSRF).</li>
 * </ul>
 */
public final class LoopbackOrigin {

    /** Names that can only mean this machine: no DNS lookup, which is what a rebinding page controls. */
    private static final Pattern LOOPBACK_HOST = Pattern.compile("localhost|\\[::1]|127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    private LoopbackOrigin() {
    }

    /**
     * Why a request without credentials is refused, or empty when it came from this machine's own clients.
     *
     * @param host   the request's Host header
     * @param origin the request's Origin header
     * @param port   the port this server is bound to
     */
    public static Optional<String> refusal(Optional<String> host, Optional<String> origin, int port) {
        String endpoints = "127.0.0.1:" + port + ", localhost:" + port + " or another loopback address with this port";
        if (host.isEmpty() || !isLoopback(host.get(), port, false)) {
            return Optional.of("the Host header must name this loopback endpoint (" + endpoints + ")");
        }
        if (origin.isPresent() && !(origin.get().toLowerCase(Locale.ROOT).startsWith("http://")
                && isLoopback(origin.get().substring("http://".length()), port, true))) {
            return Optional.of("the request's Origin is another site: only this machine's own clients (no browser page) may "
                    + "call this endpoint without credentials");
        }
        return Optional.empty();
    }

    /**
     * Whether {@code hostAndPort} names this machine on {@code port}. A Host may leave the port out (the name is what a
     * rebinding page cannot fake); an Origin names its page's port, and a page served by another port of this machine
     * is another site.
     */
    private static boolean isLoopback(String hostAndPort, int port, boolean portRequired) {
        String value = hostAndPort.strip().toLowerCase(Locale.ROOT);
        if (value.endsWith("/")) value = value.substring(0, value.length() - 1);
        String suffix = ":" + port;
        if (value.endsWith(suffix)) value = value.substring(0, value.length() - suffix.length());
        else if (portRequired || value.matches(".*:\\d+")) return false;
        return LOOPBACK_HOST.matcher(value).matches();
    }
}
