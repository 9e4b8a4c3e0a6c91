package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.toolcoach.cluster.node.NodeConfigException;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.annotated.ToolClassSuite;
import dev.toolcoach.tools.email.EmailTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.hpo.HpoTools;
import dev.toolcoach.tools.mcp.McpServerSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a tool node hosts, read from {@code toolcoach.tools}: the suites (built-in, tool classes, MCP servers), the
 * settings the built-in suites need (mailboxes, SQL limits) and the executor limits every suite's server runs with.
 *
 * @param suites   suites a tool node hosts and the coach watches
 * @param options  settings of the built-in suites
 * @param executor limits of each suite's executor, unless it has its own
 * @param suiteExecutors limits of the suites that have their own ({@code toolcoach.tools.<suite>.executor} over
 *                       {@code toolcoach.tools.executor}: an expensive suite runs fewer calls at once)
 * @param addedLatency latency added to each call's answer (off by default)
 * @param skillsPollInterval how often a server re-reads the skill folder ({@code options.skills()}) for new approvals
 * @param mcpServers MCP servers hosted as suites of their names, beside the built-in ones
 * @param classes  annotated tool classes hosted as suites of their names ({@code toolcoach.tools.classes}), in name order
 */
public record ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor,
                               AddedLatency addedLatency, Duration skillsPollInterval, List<McpServerSpec> mcpServers,
                               List<ToolClassSuite> classes, Map<String, ExecutorSettings> suiteExecutors) {

    private static final String PREFIX = "toolcoach.tools.";

    public ToolHostSettings {
        suites = List.copyOf(suites);
        mcpServers = List.copyOf(mcpServers);
        classes = List.copyOf(classes);
        suiteExecutors = Map.copyOf(suiteExecutors);
    }

    /** The executor limits of {@code suite}: its own, else every suite's. */
    public ExecutorSettings executor(String suite) {
        return suiteExecutors.getOrDefault(suite, executor);
    }

    /** Settings with no added latency, no MCP servers and no tool classes. */
    public ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor) {
        this(suites, options, executor, AddedLatency.NONE);
    }

    /** Every suite a tool node hosts: the built-in ones, the tool classes', then the MCP servers'. */
    public List<String> hostedSuites() {
        List<String> all = new ArrayList<>(suites);
        classes.forEach(toolClass -> all.add(toolClass.suite()));
        mcpServers.forEach(server -> all.add(server.name()));
        return List.copyOf(all);
    }

    /** Settings whose skill folder, if any, is re-read every 5 s, with no MCP servers and no tool classes. */
    public ToolHostSettings(List<String> suites, BuiltinSuites.Options options, ExecutorSettings executor, AddedLatency addedLatency) {
        this(suites, options, executor, addedLatency, Duration.ofSeconds(5), List.of(), List.of(), Map.of());
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
        String hpoData = tools.getString("hpo.data-dir");
        BuiltinSuites.Options options = new BuiltinSuites.Options(mailboxes, tools.getDuration("sql.statement-timeout"), maxRows,
                skills.isBlank() ? null : Path.of(skills), hpoData.isBlank() ? null : Path.of(hpoData));
        Duration poll = tools.getDuration("skills.poll-interval");
        if (poll.isNegative() || poll.isZero()) throw new NodeConfigException(PREFIX + "skills.poll-interval is " + poll + ", must be positive");
        return new ToolHostSettings(tools.getStringList("suites"), options, executorSettings(tools.getConfig("executor"), "executor"),
                addedLatency(tools), poll, McpServerSettings.fromConfig(tools), toolClasses(tools), suiteExecutors(tools));
    }

    /** {@code classes}: suite name to class name, in name order (HOCON keeps no key order, and every node lists alike). */
    private static List<ToolClassSuite> toolClasses(Config tools) {
        if (!tools.hasPath("classes")) return List.of();
        ConfigObject classes = tools.getObject("classes");
        List<ToolClassSuite> all = new ArrayList<>();
        for (String name : new TreeSet<>(classes.keySet())) {
            ConfigValue value = classes.get(name);
            if (value.valueType() != ConfigValueType.STRING || ((String) value.unwrapped()).isBlank()) {
                throw new NodeConfigException(PREFIX + "classes." + name + " must be a class name, e.g. \"com.acme.BookingTools\"");
            }
            all.add(new ToolClassSuite(name, ((String) value.unwrapped()).strip()));
        }
        return List.copyOf(all);
    }

    private static AddedLatency addedLatency(Config tools) {
        try {
            return new AddedLatency(tools.getDuration("added-latency.min"), tools.getDuration("added-latency.max"));
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(PREFIX + "added-latency: " + e.getMessage());
        }
    }

    /** Each {@code <suite>.executor} block, over the shared {@code executor} block. */
    private static Map<String, ExecutorSettings> suiteExecutors(Config tools) {
        Map<String, ExecutorSettings> own = new TreeMap<>();
        for (String suite : tools.root().keySet()) {
            String key = ConfigUtil.joinPath(suite, "executor");
            if (suite.equals("executor") || !tools.hasPath(key) || tools.getValue(key).valueType() != ConfigValueType.OBJECT) continue;
            own.put(suite, executorSettings(tools.getConfig(key).withFallback(tools.getConfig("executor")), key));
        }
        return own;
    }

    private static ExecutorSettings executorSettings(Config executor, String key) {
        try {
            return new ExecutorSettings(executor.getInt("max-concurrent-calls"), executor.getInt("max-queued-calls"),
                    executor.getDuration("call-timeout"), executor.getInt("output-cap-chars"),
                    executor.getDuration("trajectory-idle-timeout"), executor.getInt("max-abandoned-threads"));
        } catch (IllegalArgumentException e) { // the right type, out of range: the record's check names the value
            throw new NodeConfigException(PREFIX + key + ": " + e.getMessage());
        }
    }

    /**
     * Checks that a tool node can host every configured suite: each of {@code suites} is a built-in one, each tool
     * class can be loaded and made and has tools (no code of it runs yet), no two suites share a name, and the email
     * suite has mailboxes that exist and can be read, and the hpo suite its datasets' folder. Run before anything
     * starts, so a bad value is a one-line error rather than a failed actor.
     */
    public ToolHostSettings checkHostable() {
        if (suites.isEmpty() && mcpServers.isEmpty() && classes.isEmpty()) {
            throw new NodeConfigException(PREFIX + "suites is empty and no MCP server or tool class is configured: a tool node must host"
                    + " at least one of " + BuiltinSuites.NAMES + ", " + PREFIX + "classes or " + PREFIX + "mcp.servers");
        }
        for (McpServerSpec server : mcpServers) {
            if (suites.contains(server.name()) || BuiltinSuites.NAMES.contains(server.name())) {
                throw new NodeConfigException(PREFIX + "mcp.servers." + server.name() + " has the name of a built-in suite; name it otherwise");
            }
        }
        for (ToolClassSuite toolClass : classes) {
            String key = PREFIX + "classes." + toolClass.suite();
            if (suites.contains(toolClass.suite()) || BuiltinSuites.NAMES.contains(toolClass.suite())) {
                throw new NodeConfigException(key + " has the name of a built-in suite; name it otherwise");
            }
            if (mcpServers.stream().anyMatch(server -> server.name().equals(toolClass.suite()))) {
                throw new NodeConfigException(key + " has the name of " + PREFIX + "mcp.servers." + toolClass.suite() + "; name one otherwise");
            }
            try {
                toolClass.check();
            } catch (IllegalArgumentException e) {
                throw new NodeConfigException(key + ": " + e.getMessage());
            }
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
        if (suites.contains(HpoTools.SUITE)) {
            if (options.hpoData() == null) {
                throw new NodeConfigException(PREFIX + "suites includes hpo but " + PREFIX
                        + "hpo.data-dir is empty: give the folder of its datasets (the shared data's hpo/)");
            }
            if (!Files.isReadable(options.hpoData().resolve("breast_cancer.csv"))) {
                throw new NodeConfigException(PREFIX + "hpo.data-dir: " + options.hpoData() + " holds no readable breast_cancer.csv");
            }
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
