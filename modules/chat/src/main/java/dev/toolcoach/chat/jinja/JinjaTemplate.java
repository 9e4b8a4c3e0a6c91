package dev.toolcoach.chat.jinja;

import dev.toolcoach.chat.jinja.Ast.Node;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

/**
 * A Jinja template parsed and rendered as Transformers' {@code apply_chat_template} configures jinja2: an
 * immutable sandbox ({@code ImmutableSandboxedEnvironment}), {@code trim_blocks}, {@code lstrip_blocks}, loop
 * controls, Python values and methods. Covers the language chat templates use (statements if/for/set/macro/
 * filter/break/continue/generation, jinja2's operators, tests and the common filters); anything else is a
 * {@link TemplateError} naming it, never a silent difference.
 */
public final class JinjaTemplate {
    private final List<Node> body;

    private JinjaTemplate(List<Node> body) {
        this.body = body;
    }

    /** @throws TemplateError when the source is not a template this interpreter understands */
    public static JinjaTemplate parse(String source) {
        return new JinjaTemplate(Parser.parse(source));
    }

    /**
     * Transformers' own template globals: {@code raise_exception(message)} (a {@link TemplateError} carrying the
     * template's message) and {@code strftime_now(format)} (Python's strftime of the clock's current time).
     */
    public static Map<String, PyCallable> transformersGlobals(Clock clock) {
        return Map.of(
                "raise_exception", (args, kwargs) -> {
                    throw new TemplateError(args.isEmpty() ? "" : Py.str(args.get(0)));
                },
                "strftime_now", (args, kwargs) -> {
                    if (args.size() != 1 || !(args.get(0) instanceof String format)) {
                        throw new TemplateError("strftime_now takes one format string");
                    }
                    return Strftime.format(format, ZonedDateTime.now(clock));
                });
    }

    /**
     * @param variables JSON-like values (Map, List, String, Number, Boolean, null) and {@link PyCallable} functions
     * @throws TemplateError when rendering fails or the template raises
     */
    public String render(Map<String, ?> variables) {
        Interpreter.Scope globals = new Interpreter.Scope(null);
        Builtins.globals().forEach(globals::set);
        Interpreter.Scope scope = new Interpreter.Scope(globals);
        variables.forEach((k, v) -> scope.set(k, Py.from(v)));
        try {
            return new Interpreter().render(body, scope);
        } catch (StackOverflowError e) {
            throw new TemplateError("the template nests too deeply to render");
        } catch (ClassCastException | IndexOutOfBoundsException | NullPointerException | ArithmeticException e) {
            // a builtin given arguments of the wrong kind: jinja2 would raise a TypeError here
            throw new TemplateError("bad arguments in the template (" + e.getClass().getSimpleName() + ")");
        }
    }
}
