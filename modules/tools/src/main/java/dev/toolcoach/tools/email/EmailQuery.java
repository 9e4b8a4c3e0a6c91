package dev.toolcoach.tools.email;

import java.time.LocalDate;

/**
 * A search: every given criterion must hold. Null or blank criteria are not applied.
 *
 * @param keywords words in the subject or body (all must occur; "quotes" for phrases, -word to exclude)
 * @param from     sender: a full address matches exactly, other text matches words of the sender's name or address
 * @param to       a To or Cc recipient, matched the same way
 * @param dateFrom first day, inclusive (UTC)
 * @param dateTo   last day, inclusive (UTC)
 * @param limit    most hits to return
 */
public record EmailQuery(String keywords, String from, String to, LocalDate dateFrom, LocalDate dateTo, int limit) {
    public EmailQuery {
        if (limit < 1) throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        if (dateFrom != null && dateTo != null && dateFrom.isAfter(dateTo)) {
            throw new IllegalArgumentException("date_from " + dateFrom + " is after date_to " + dateTo);
        }
    }
}
