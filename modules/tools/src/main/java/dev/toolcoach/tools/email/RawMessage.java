package dev.toolcoach.tools.email;

import java.util.Objects;

/** The bytes of one RFC 822 message and where they came from, before parsing. */
public record RawMessage(String location, byte[] content) {
    public RawMessage {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(content, "content of " + location);
    }
}
