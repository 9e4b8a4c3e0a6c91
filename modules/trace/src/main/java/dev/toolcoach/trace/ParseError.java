package dev.toolcoach.trace;

import java.util.Objects;

/** Why a model completion could not be turned into a valid action; recorded, never thrown. */
public record ParseError(Kind kind, String message) {

    public enum Kind {
        /** Neither a tool call nor an answer was found. */
        NO_ACTION,
        /** An opening tag without its closing tag, or the reverse. */
        UNCLOSED_TAG,
        /** The tool call body is not valid JSON, or not the expected shape. */
        MALFORMED_JSON,
        /** A call names a tool the agent does not have. */
        UNKNOWN_TOOL,
        /** A required argument is missing. */
        MISSING_ARGUMENT,
        /** An argument the tool does not declare. */
        UNEXPECTED_ARGUMENT,
        /** An argument of the wrong JSON type. */
        WRONG_TYPE,
        /** More than one answer block. */
        MULTIPLE_ANSWERS,
        /** Text after the closing answer tag. */
        TEXT_AFTER_ANSWER,
        /** Both tool calls and an answer in one turn. */
        CALL_AND_ANSWER,
        /** A tool call block with no calls in it. */
        EMPTY_CALL
    }

    public ParseError {
        Objects.requireNonNull(kind, "kind");
        message = message == null ? "" : message;
    }

    @Override
    public String toString() {
        return kind + ": " + message;
    }
}
