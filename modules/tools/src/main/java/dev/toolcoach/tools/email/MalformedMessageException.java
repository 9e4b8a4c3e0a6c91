package dev.toolcoach.tools.email;

/** A message that cannot be indexed (no Message-ID, an unparseable date, no headers ...). */
public class MalformedMessageException extends Exception {
    public MalformedMessageException(String message) {
        super(message);
    }
}
