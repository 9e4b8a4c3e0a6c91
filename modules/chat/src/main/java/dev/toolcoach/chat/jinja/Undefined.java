package dev.toolcoach.chat.jinja;

/** jinja2's Undefined: a missing variable, key or attribute; falsy, prints as nothing, fails when used further. */
final class Undefined {
    /** What jinja2 would say when it is used, e.g. {@code 'x' is undefined}. */
    final String message;

    Undefined(String message) {
        this.message = message;
    }

    TemplateError error() {
        return new TemplateError(message);
    }
}
