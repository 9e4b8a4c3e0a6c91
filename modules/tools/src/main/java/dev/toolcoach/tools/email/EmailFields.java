package dev.toolcoach.tools.email;

/** Lucene field names of the email index, shared by the indexer and the searcher. */
final class EmailFields {
    static final String ID = "message_id";
    static final String FROM = "from";
    static final String FROM_NAME = "from_name";
    static final String TO = "to";
    static final String CC = "cc";
    /** To and Cc addresses, exact, for "sent to" filters. */
    static final String RECIPIENT = "recipient";
    /** Sender name and address words, for filters by name or partial address. */
    static final String SENDER_WORDS = "sender_words";
    static final String RECIPIENT_WORDS = "recipient_words";
    static final String SUBJECT = "subject";
    static final String BODY = "body";
    static final String DATE = "date";
    static final String LOCATION = "location";

    private EmailFields() {
    }
}
