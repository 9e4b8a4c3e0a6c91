package dev.toolcoach.cluster.node;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;

/**
 * A node program's command reference in Markdown, written from its picocli definitions: each command's usage help as
 * {@code --help} prints it, so docs/commands never drift from the options a user can type. Each node module's
 * CommandReferenceTest compares its file with this and rewrites it when run with {@code -Dcommands.write=true}.
 */
public final class CommandReference {

    /** Wide enough for the options' descriptions, narrow enough to read on a page without scrolling. */
    static final int WIDTH = 110;

    private CommandReference() {
    }

    public static String markdown(NodeRunCommand program) {
        CommandLine root = NodeCli.commandLine(program).setUsageHelpWidth(WIDTH).setUsageHelpAutoWidth(false);
        StringBuilder out = new StringBuilder();
        out.append("# `").append(root.getCommandName()).append("` command reference\n\n")
                .append("Written from the picocli definitions: each command's `--help`. The node's")
                .append(" `CommandReferenceTest` fails\nwhile this file is stale; rewrite it with\n\n```bash\n")
                .append("mvn -o -q install -DskipTests && mvn -o surefire:test -pl ").append(root.getCommandName())
                .append(" -Dtest=CommandReferenceTest -Dcommands.write=true\n```\n");
        append(root, 2, out);
        return out.toString();
    }

    private static void append(CommandLine command, int level, StringBuilder out) {
        checkFormats(command);
        out.append('\n').append("#".repeat(level)).append(" `").append(qualifiedName(command)).append("`\n\n")
                .append("```\n").append(command.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing())
                .append("\n```\n");
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            // picocli lists each alias as a key of the same command; `help` is picocli's own
            if (!sub.getKey().equals(sub.getValue().getCommandName()) || sub.getKey().equals("help")) continue;
            append(sub.getValue(), Math.min(level + 1, 4), out);
        }
    }

    /**
     * picocli formats descriptions with {@link String#format}: a lone {@code %} ("95% interval") makes it print a
     * warning into every {@code --help} and give up on the line breaks, so such a description is refused here.
     */
    private static void checkFormats(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        // with interpolation on, an option's description() comes back already formatted (and a failure swallowed)
        spec.interpolateVariables(false);
        List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
        for (ArgSpec arg : spec.args()) texts.addAll(List.of(arg.description()));
        spec.interpolateVariables(true);
        for (String text : texts) {
            try {
                String.format(text);
            } catch (IllegalFormatException e) {
                throw new IllegalStateException(qualifiedName(command) + ": a description is not a format string"
                        + " picocli can print (write a percent sign as %%): " + text);
            }
        }
    }

    private static String qualifiedName(CommandLine command) {
        return command.getCommandSpec().qualifiedName(" ");
    }
}
