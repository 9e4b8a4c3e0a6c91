package dev.toolcoach.toolnode;

import dev.toolcoach.tools.mcp.CappedSessions;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Answers a new session's {@code initialize} (a POST without {@code Mcp-Session-Id}) with 503 and {@code Retry-After}
 * while every session the server keeps has a stream open, before its body is read: the server is busy, not broken (the
 * SDK's own answer to a refused session is a 500). Two initializes that race for the last place can still meet that
 * 500 for the loser, with the same one-line reason.
 */
final class SessionCapFilter extends HttpFilter {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final int RETRY_AFTER_SECONDS = 5;

    private final CappedSessions sessions;

    SessionCapFilter(CappedSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if ("POST".equals(request.getMethod()) && request.getHeader(SESSION_HEADER) == null && sessions.full()) {
            response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, sessions.refusal());
            return;
        }
        chain.doFilter(request, response);
    }
}
