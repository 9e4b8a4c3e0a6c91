package dev.toolcoach.chat.jinja;

/** A template that cannot be parsed or that fails while rendering (jinja2's TemplateError); the message is one line. */
public final class TemplateError extends RuntimeException {
    public TemplateError(String message) {
        super(message.replace("\r", "\\r").replace("\n", "\\n"));
    }
}
