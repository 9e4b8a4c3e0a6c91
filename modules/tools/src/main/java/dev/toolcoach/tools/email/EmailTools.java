package dev.toolcoach.tools.email;

import dev.toolcoach.tools.schema.ToolJson;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;

import java.io.IOException;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code email} suite: search a mailbox index, then read a message by its Message-ID. */
public final class EmailTools {

    public static final String SUITE = "email";
    static final int DEFAULT_LIMIT = 10;
    static final int MAX_LIMIT = 50;

    private final EmailIndex index;

    public EmailTools(EmailIndex index) {
        this.index = index;
    }

    public static ToolSuite suite(EmailIndex index) {
        return ToolSuite.builder(SUITE).addAnnotated(new EmailTools(index)).build();
    }

    @ToolMethod(name = "search_emails", description = "Search the mailbox. All given criteria must match. Returns up to"
            + " `limit` messages (best match first, or newest first without keywords) with their message_id, date, sender,"
            + " recipients, subject and the start of the body. Use read_email to see a whole message.")
    public ToolOutput searchEmails(
            @Param(value = "words that must all occur in the subject or body; \"quotes\" for a phrase, -word to exclude",
                    required = false) String keywords,
            @Param(value = "sender: a full email address, or words of the sender's name or address", required = false) String from,
            @Param(value = "a To or Cc recipient: a full email address, or words of the name or address", required = false) String to,
            @Param(name = "date_from", value = "earliest date sent, YYYY-MM-DD, inclusive", required = false) LocalDate dateFrom,
            @Param(name = "date_to", value = "latest date sent, YYYY-MM-DD, inclusive", required = false) LocalDate dateTo,
            @Param(value = "most results to return, 1-" + MAX_LIMIT + " (default " + DEFAULT_LIMIT + ")", required = false) Integer limit)
            throws ToolException, IOException {
        int n = limit == null ? DEFAULT_LIMIT : limit;
        if (n > MAX_LIMIT) throw new ToolException("limit must be between 1 and " + MAX_LIMIT + ", got " + n);
        EmailQuery query;
        try {
            query = new EmailQuery(keywords, from, to, dateFrom, dateTo, n);
        } catch (IllegalArgumentException e) {
            throw new ToolException(e.getMessage());
        }
        List<EmailHit> hits = index.search(query);
        List<Object> structured = ToolJson.mapper().convertValue(hits, List.class);
        if (hits.isEmpty()) return new ToolOutput("No messages match.", structured);
        StringBuilder text = new StringBuilder(hits.size() + (hits.size() == 1 ? " message:\n" : " messages:\n"));
        for (EmailHit hit : hits) {
            text.append("- message_id: ").append(hit.messageId())
                    .append("\n  date: ").append(hit.date())
                    .append("\n  from: ").append(hit.from())
                    .append("\n  to: ").append(String.join(", ", hit.to()))
                    .append("\n  subject: ").append(hit.subject())
                    .append("\n  snippet: ").append(hit.snippet()).append('\n');
        }
        return new ToolOutput(text.toString(), structured);
    }

    @ToolMethod(name = "read_email", description = "Read one message in full (headers and body) by its message_id.")
    public ToolOutput readEmail(@Param(name = "message_id", value = "the message_id from search_emails") String messageId)
            throws ToolException, IOException {
        Email email = index.read(messageId).orElseThrow(() -> new ToolException("no message has message_id '" + messageId
                + "'; use a message_id exactly as search_emails returned it"));
        String text = "Message-ID: " + email.messageId()
                + "\nDate: " + email.date()
                + "\nFrom: " + (email.fromName().isEmpty() ? email.from() : email.fromName() + " <" + email.from() + ">")
                + "\nTo: " + String.join(", ", email.to())
                + (email.cc().isEmpty() ? "" : "\nCc: " + String.join(", ", email.cc()))
                + "\nSubject: " + email.subject()
                + "\n\n" + email.body();
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("message_id", email.messageId());
        structured.put("date", email.date().toString());
        structured.put("from", email.from());
        structured.put("from_name", email.fromName());
        structured.put("to", email.to());
        structured.put("cc", email.cc());
        structured.put("subject", email.subject());
        structured.put("body", email.body());
        return new ToolOutput(text, structured);
    }
}
