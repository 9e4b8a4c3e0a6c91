package dev.toolcoach.openai.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The check every ToolCoach server makes of an {@code Authorization: Bearer <token>} header: the scheme in any case
 * (RFC 7235: {@code bearer} is {@code Bearer}), the token compared in constant time, so an answer's timing tells nothing
 * about it.
 */
public final class BearerToken {

    private BearerToken() {
    }

    /** Whether {@code authorization} (the header's value; null when there is none) carries {@code token}. */
    public static boolean matches(String authorization, String token) {
        if (authorization == null) return false;
        String value = authorization.strip();
        int space = value.indexOf(' ');
        if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Bearer")) return false;
        return MessageDigest.isEqual(value.substring(space + 1).strip().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }
}
