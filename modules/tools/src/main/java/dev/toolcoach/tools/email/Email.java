package dev.toolcoach.tools.email;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One parsed message.
 *
 * @param messageId the Message-ID without angle brackets
 * @param from      sender address, lower case
 * @param fromName  sender display name, or empty
 * @param to        To addresses, lower case
 * @param cc        Cc addresses, lower case
 * @param subject   decoded subject, or empty
 * @param date      when it was sent
 * @param body      the plain-text body, transfer-decoded
 * @param location  where it was read from (file, or file and line)
 */
public record Email(String messageId, String from, String fromName, List<String> to, List<String> cc,
                    String subject, Instant date, String body, String location) {
    public Email {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(date, "date");
        from = from == null ? "" : from;
        fromName = fromName == null ? "" : fromName;
        to = to == null ? List.of() : List.copyOf(to);
        cc = cc == null ? List.of() : List.copyOf(cc);
        subject = subject == null ? "" : subject;
        body = body == null ? "" : body;
        location = location == null ? "" : location;
    }

    /** Message-IDs are written with or without angle brackets; both mean the same message. */
    public static String normaliseId(String messageId) {
        String id = messageId.strip();
        if (id.startsWith("<")) id = id.substring(1);
        if (id.endsWith(">")) id = id.substring(0, id.length() - 1);
        return id.strip();
    }
}
