package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;

/** Internal signal that a completion is not a valid action; the parser turns it into a {@link ParseError}. */
final class ActionRejected extends Exception {

    private final transient ParseError error;

    ActionRejected(ParseError.Kind kind, String message) {
        super(message, null, false, false); // an expected outcome, not a bug: no stack trace needed
        this.error = new ParseError(kind, message);
    }

    ParseError error() {
        return error;
    }
}
