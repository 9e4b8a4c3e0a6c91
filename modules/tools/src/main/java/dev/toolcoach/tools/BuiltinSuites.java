package dev.toolcoach.tools;

import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.email.EmailIndexer;
import dev.toolcoach.tools.email.EmailTools;
import dev.toolcoach.tools.email.IndexReport;
import dev.toolcoach.tools.email.MailSource;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.hpo.HpoTools;
import dev.toolcoach.tools.skills.ApprovedSkills;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.tools.sql.SqlDatabase;
import dev.toolcoach.tools.sql.SqlTools;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The built-in suites by name, as a tool node's config names them, each with what it holds open
 * (an email index, a database) so the node can close it with the suite.
 */
public final class BuiltinSuites {

    private static final Logger LOG = LoggerFactory.getLogger(BuiltinSuites.class);
    public static final List<String> NAMES = List.of(ArithmeticTools.SUITE, FinanceTools.SUITE, EmailTools.SUITE, SqlTools.SUITE,
            HpoTools.SUITE);

    private BuiltinSuites() {
    }

    /**
     * Settings of the suites that need some.
     *
     * @param mailboxes           mbox files, maildirs or CSV files the email suite indexes
     * @param sqlStatementTimeout longest a SQL query may run
     * @param sqlMaxRows          most rows a SQL query returns
     * @param skills              a skill library folder ({@link SkillLibrary}) whose approved composites join the suites
     *                            they are over, or null for none
     * @param hpoData             the hpo suite's datasets folder (the shared data's {@code hpo/}), or null for none
     */
    public record Options(List<Path> mailboxes, Duration sqlStatementTimeout, int sqlMaxRows, Path skills, Path hpoData) {
        public Options {
            mailboxes = List.copyOf(mailboxes);
            Objects.requireNonNull(sqlStatementTimeout, "sqlStatementTimeout");
        }

        public Options(List<Path> mailboxes, Duration sqlStatementTimeout, int sqlMaxRows) {
            this(mailboxes, sqlStatementTimeout, sqlMaxRows, null, null);
        }

        /** No mailboxes, 2 s SQL statements, 50 rows, no skills, no hpo datasets. */
        public static Options defaults() {
            return new Options(List.of(), Duration.ofSeconds(2), 50);
        }

        public Options withMailboxes(List<Path> paths) {
            return new Options(paths, sqlStatementTimeout, sqlMaxRows, skills, hpoData);
        }

        public Options withHpoData(Path folder) {
            return new Options(mailboxes, sqlStatementTimeout, sqlMaxRows, skills, folder);
        }

        public Options withSkills(Path folder) {
            return new Options(mailboxes, sqlStatementTimeout, sqlMaxRows, folder, hpoData);
        }
    }

    /** A suite (its own tools, without skills) and what it holds open; closing releases it. */
    public record Hosted(ToolSuite suite, AutoCloseable resources) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            resources.close();
        }
    }

    /**
     * The suite with the approved skills over it from the options' skill folder (none without one): what an executor
     * serves. Read again whenever called, so a skill approved since is registered by the next call.
     *
     * @throws IllegalArgumentException for a skill definition that cannot be used (one line naming file and field)
     */
    public static ToolSuite withSkills(ToolSuite suite, Options options) {
        return options.skills() == null ? suite : new ApprovedSkills(suite, options.skills()).suite();
    }

    /** Opens the named suite; an unknown name or a mailbox that cannot be read fails naming it. */
    public static Hosted open(String name, Options options) throws MailSourceException {
        return switch (name) {
            case ArithmeticTools.SUITE -> new Hosted(ArithmeticTools.suite(), () -> { });
            case FinanceTools.SUITE -> new Hosted(FinanceTools.suite(), () -> { });
            case SqlTools.SUITE -> {
                SqlDatabase database = SqlDatabase.sampleCompany();
                yield new Hosted(SqlTools.suite(database, options.sqlStatementTimeout(), options.sqlMaxRows()), database);
            }
            case EmailTools.SUITE -> openEmail(options.mailboxes());
            case HpoTools.SUITE -> {
                if (options.hpoData() == null) {
                    throw new IllegalArgumentException("the hpo suite needs the folder of its datasets (the shared data's hpo/)");
                }
                yield new Hosted(HpoTools.suite(HpoLab.shared(options.hpoData())), () -> { });
            }
            default -> throw new IllegalArgumentException("no built-in tool suite named '" + name + "'; built-in suites: " + NAMES);
        };
    }

    private static Hosted openEmail(List<Path> mailboxes) throws MailSourceException {
        if (mailboxes.isEmpty()) {
            throw new IllegalArgumentException("the email suite needs at least one mailbox (an mbox file, a maildir or a CSV)");
        }
        EmailIndexer.Result indexed = new EmailIndexer().indexInMemory(mailboxes.stream().map(MailSource::at).toList());
        IndexReport report = indexed.report();
        // skipped messages are counted in the summary and each named here, so none goes missing unnoticed
        report.skipped().forEach(s -> LOG.warn("email suite: message skipped at {}", s));
        LOG.info("email suite: {} of {} messages indexed from {} in {} ms ({} skipped, {} duplicate Message-IDs)",
                report.indexed(), report.messagesRead(), mailboxes, report.elapsedMillis(), report.skipped().size(),
                report.duplicates().size());
        return new Hosted(EmailTools.suite(indexed.index()), indexed.index());
    }
}
