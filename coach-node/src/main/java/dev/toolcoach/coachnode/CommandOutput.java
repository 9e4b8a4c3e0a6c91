package dev.toolcoach.coachnode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine.Model.CommandSpec;

/** How the commands finish: a JSON summary on stdout, or one error line on stderr with an exit code. */
final class CommandOutput {

    /** The external model or a file failed while running. */
    static final int RUN_ERROR = 1;
    /** The command line or an input file is wrong. */
    static final int INPUT_ERROR = 2;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CommandOutput() {
    }

    static int summary(CommandSpec spec, Object summary) {
        try {
            spec.commandLine().getOut().println(JSON.writeValueAsString(summary));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("summary cannot be written as JSON", e);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    static int error(CommandSpec spec, int code, String message) {
        spec.commandLine().getErr().println(spec.name() + ": " + message);
        spec.commandLine().getErr().flush();
        return code;
    }
}
