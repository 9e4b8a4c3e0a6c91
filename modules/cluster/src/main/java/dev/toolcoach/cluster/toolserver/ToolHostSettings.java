package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.Config;
import dev.toolcoach.cluster.node.NodeConfigException;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.email.EmailTools;
import dev.toolcoach.tools.exec.ExecutorSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a tool node hosts, read from {@code toolcoach.tools}: the suites, the settings the built-in
 * suites need (mailboxes, SQL limits) and the executor limits every suite's server runs with.
 *
 * @param suites   suites a tool node hosts and the coach watches
 * @param options  settings of the built-in suites
 * @param executor limits of each suite's executor
 * @param addedLatency latency added to each call's answer (off by default)
 * @param skillsPollInterval how often a server re-reads the skill folder ({@code options.skills()}) for new approvals
 */
public record ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor,
                               AddedLatency addedLatency, Duration skillsPollInterval) {

    private static final String PREFIX = "toolcoach.tools.";

    public ToolHostSettings {
        suites = List.copyOf(suites);
    }

    /** Settings with no added latency. */
    public ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor) {
        this(suites, options, executor, AddedLatency.NONE);
    }

    /** Settings whose skill folder, if any, is re-read every 5 s. */
    public ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor, AddedLatency addedLatency) {
        this(suites, options, executor, addedLatency, Duration.ofSeconds(5));
    }

    /**
     * Reads the settings. A value out of range is a {@link NodeConfigException} naming its key; a value
     * of the wrong type is Typesafe Config's exception, which names file, line and key.
     */
    public static ToolHostSettings fromConfig(Config config) {
        Config tools = config.getConfig("toolcoach.tools");
        List<Path> mailboxes = tools.getStringList("email.mailboxes").stream().map(Path::of).toList();
        int maxRows = tools.getInt("sql.max-rows");
        if (maxRows < 1) throw new NodeConfigException(PREFIX + "sql.max-rows is " + maxRows + ", must be at least 1");
        String skills = tools.getString("skills.dir");
        BuiltinSuites.Options options = new BuiltinSuites.Options(mailboxes, tools.getDuration("sql.statement-timeout"), maxRows,
                skills.isBlank() ? null : Path.of(skills));
        Duration poll = tools.getDuration("skills.poll-interval");
        if (poll.isNegative() || poll.isZero()) throw new NodeConfigException(PREFIX + "skills.poll-interval is " + poll + ", must be positive");
        return new ToolHostSettings(tools.getStringList("suites"), options, executorSettings(tools), addedLatency(tools), poll);
    }

    private static AddedLatency addedLatency(Config tools) {
        try {
            return new AddedLatency(tools.getDuration("added-latency.min"), tools.getDuration("added-latency.max"));
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(PREFIX + "added-latency: " + e.getMessage());
        }
    }

    private static ExecutorSettings executorSettings(Config tools) {
        Config executor = tools.getConfig("executor");
        try {
            return new ExecutorSettings(executor.getInt("max-concurrent-calls"), executor.getInt("max-queued-calls"),
                    executor.getDuration("call-timeout"), executor.getInt("output-cap-chars"),
                    executor.getDuration("trajectory-idle-timeout"), executor.getInt("max-abandoned-threads"));
        } catch (IllegalArgumentException e) { // the right type, out of range: the record's check names the value
            throw new NodeConfigException(PREFIX + "executor: " + e.getMessage());
        }
    }

    /**
     * Checks that a tool node can host every configured suite: each is a built-in one, and the email
     * suite has mailboxes that exist and can be read. Run before anything starts, so a bad value is a
     * one-line error rather than a failed actor.
     */
    public ToolHostSettings checkHostable() {
        if (suites.isEmpty()) {
            throw new NodeConfigException(PREFIX + "suites is empty: a tool node must host at least one of " + BuiltinSuites.NAMES);
        }
        for (String suite : suites) {
            if (!BuiltinSuites.NAMES.contains(suite)) {
                throw new NodeConfigException(PREFIX + "suites names '" + suite + "', which is not a built-in suite "
                        + BuiltinSuites.NAMES);
            }
        }
        if (options.skills() != null && !Files.isDirectory(options.skills())) {
            throw new NodeConfigException(PREFIX + "skills.dir: " + options.skills() + " is not a folder");
        }
        if (suites.contains(EmailTools.SUITE)) {
            if (options.mailboxes().isEmpty()) {
                throw new NodeConfigException(PREFIX + "suites includes email but " + PREFIX
                        + "email.mailboxes is empty: give the mbox files, maildirs or CSV files to index");
            }
            for (Path mailbox : options.mailboxes()) {
                if (!Files.exists(mailbox)) {
                    throw new NodeConfigException(PREFIX + "email.mailboxes: " + mailbox + " does not exist");
                }
                if (!Files.isReadable(mailbox)) {
                    throw new NodeConfigException(PREFIX + "email.mailboxes: " + mailbox + " is not readable");
                }
            }
        }
        return this;
    }
}
