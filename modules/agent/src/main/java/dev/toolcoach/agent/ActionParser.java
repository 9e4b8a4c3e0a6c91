package dev.toolcoach.agent;

import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;

import java.util.List;

/**
 * Turns a model completion into an action: the strict reading of a format's {@link ToolCallCodec},
 * with calls checked against the given tools. Total: every string, however broken, maps to a
 * {@link ParsedCompletion}; what is wrong with it is a {@link ParseError} of a specific kind.
 */
public final class ActionParser {

    private final ToolCallCodec codec;
    private final ArgumentValidator validator;

    public ActionParser(ActionFormat format, List<ToolSpec> tools) {
        this.codec = format.codec();
        this.validator = new ArgumentValidator(tools);
    }

    public ParsedCompletion parse(String completion) {
        return codec.readStrict(completion, validator);
    }
}
