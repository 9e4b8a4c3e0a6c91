package dev.toolcoach.tools.email;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.List;

/** One search result: enough to decide whether to read the message. */
@JsonPropertyOrder({"message_id", "date", "from", "to", "subject", "snippet"}) // Jackson 2.13 would put message_id last
public record EmailHit(@JsonProperty("message_id") String messageId, Instant date, String from, List<String> to,
                       String subject, String snippet) {
    public EmailHit {
        to = List.copyOf(to);
    }
}
