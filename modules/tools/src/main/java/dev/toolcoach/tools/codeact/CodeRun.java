package dev.toolcoach.tools.codeact;

import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one program ran: what the trace keeps of a code action (ToolBrain's execution log and {@code action_output}).
 *
 * @param code       the program
 * @param stdout     what it printed (cut to the sandbox's reading cap)
 * @param stderr     what it wrote to standard error, likewise
 * @param exitCode   the interpreter's exit status (128 + signal when the kernel stopped it)
 * @param value      the value of its last expression, as JSON (a repr string when not JSON), or null
 * @param error      why it failed (syntax error, exception with the program's own lines, a limit), or null
 * @param toolCalls  the tool calls it made, in order, with their status
 * @param millis     wall-clock time of the run
 */
public record CodeRun(String code, String stdout, String stderr, int exitCode, Object value, String error,
                      List<Map<String, Object>> toolCalls, long millis) {

    public CodeRun {
        toolCalls = List.copyOf(toolCalls);
    }

    public boolean ok() {
        return error == null;
    }

    /**
     * The result the model sees for {@code call}: the printed output and the last expression's value, or the
     * error with whatever was printed before it; the whole run as the structured output.
     */
    public ToolResult toResult(ToolCall call) {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("code", code);
        structured.put("stdout", stdout);
        structured.put("stderr", stderr);
        structured.put("return_code", exitCode);
        structured.put("action_output", value);
        structured.put("tool_calls", toolCalls);
        if (!ok()) {
            String text = "Error: " + error + (stdout.isBlank() ? "" : "\nPrinted before the error:\n" + stdout.strip());
            return new ToolResult(call, ToolResult.Status.ERROR, text, structured, error, millis, false, 0);
        }
        String printed = stdout.strip();
        String shown = value == null ? printed : (printed.isEmpty() ? "" : printed + "\n") + "Result: " + value;
        return new ToolResult(call, ToolResult.Status.OK, shown.isEmpty() ? "(the program printed nothing)" : shown,
                structured, null, millis, false, 0);
    }
}
