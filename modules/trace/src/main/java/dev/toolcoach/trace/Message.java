package dev.toolcoach.trace;

import java.util.Objects;

/** One chat message: role ({@code system}, {@code user}, {@code assistant}, {@code tool}) and content. */
public record Message(String role, String content) {
    public Message {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
    }

    public static Message system(String content) { return new Message("system", content); }
    public static Message user(String content) { return new Message("user", content); }
    public static Message assistant(String content) { return new Message("assistant", content); }
    public static Message tool(String content) { return new Message("tool", content); }
}
