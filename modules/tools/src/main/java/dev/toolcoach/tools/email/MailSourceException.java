package dev.toolcoach.tools.email;

/** A mailbox that cannot be read at all (missing, wrong kind of file, broken beyond one message). */
public class MailSourceException extends Exception {
    public MailSourceException(String message) {
        super(message);
    }

    public MailSourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
