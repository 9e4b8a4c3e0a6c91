package dev.toolcoach.tools.sql;

import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;

import java.sql.Clob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code sql} suite: read-only queries against an embedded database, each checked first
 * ({@link ReadOnlyStatementCheck}: one query, allowed functions only), run under a statement timeout the database
 * enforces (its session timeout, JDBC's {@code setQueryTimeout}, and a {@code Statement.cancel} from another thread
 * shortly after, should the query not be stopped by the first two), and returning at most a fixed number of rows and
 * {@value #MAX_RESULT_CHARS} characters of values.
 */
public final class SqlTools {

    public static final String SUITE = "sql";
    /** More columns than any schema a model should browse; the row cap is for query answers, not this listing. */
    private static final int SCHEMA_LISTING_CAP = 10_000;
    /** H2's SQL state for a statement cancelled by its timeout. */
    private static final String CANCELLED = "57014";
    /** Characters of values a result holds at most; rows past it are cut like rows past the row cap. */
    static final int MAX_RESULT_CHARS = 20_000;
    /** How long after the statement timeout the statement is cancelled from outside, if it still runs. */
    private static final Duration CANCEL_GRACE = Duration.ofMillis(200);
    /** Cancels statements that outlive their timeout: one daemon thread for every database of the process. */
    private static final ScheduledExecutorService CANCELLER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sql-statement-cancel");
        t.setDaemon(true);
        return t;
    });

    private final SqlDatabase database;
    private final Duration statementTimeout;
    private final int maxRows;

    public SqlTools(SqlDatabase database, Duration statementTimeout, int maxRows) {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be >= 1, got " + maxRows);
        if (statementTimeout.isNegative() || statementTimeout.isZero()) throw new IllegalArgumentException("statement timeout must be positive");
        this.database = database;
        this.statementTimeout = statementTimeout;
        this.maxRows = maxRows;
    }

    public static ToolSuite suite(SqlDatabase database, Duration statementTimeout, int maxRows) {
        return ToolSuite.builder(SUITE).addAnnotated(new SqlTools(database, statementTimeout, maxRows)).build();
    }

    /** One query's answer: column names, rows as lists in column order, and whether rows were cut at the cap. */
    public record QueryResult(List<String> columns, List<List<Object>> rows, boolean truncated) {
    }

    @ToolMethod(name = "run_sql", description = "Run one read-only SQL query (SELECT/WITH) on the database and return"
            + " its rows. Use list_tables first to see the tables and columns.")
    public ToolOutput runSql(@Param("a single SQL query") String query) throws ToolException {
        String problem = ReadOnlyStatementCheck.problem(query);
        if (problem != null) throw new ToolException(problem);
        QueryResult result = execute(query, maxRows);
        return new ToolOutput(render(result), resultMap(result));
    }

    @ToolMethod(name = "list_tables", description = "List the database's tables with their columns and types.")
    public ToolOutput listTables() throws ToolException {
        QueryResult columns = execute("SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY TABLE_NAME, ORDINAL_POSITION", SCHEMA_LISTING_CAP);
        Map<String, List<String>> tables = new LinkedHashMap<>();
        for (List<Object> row : columns.rows()) {
            tables.computeIfAbsent(row.get(0).toString().toLowerCase(), t -> new ArrayList<>())
                    .add(row.get(1).toString().toLowerCase() + " " + row.get(2));
        }
        StringBuilder text = new StringBuilder();
        tables.forEach((table, cols) -> text.append(table).append('(').append(String.join(", ", cols)).append(")\n"));
        return new ToolOutput(text.toString(), tables);
    }

    private QueryResult execute(String sql, int rowCap) throws ToolException {
        try (Connection connection = database.readerConnection(); Statement statement = connection.createStatement()) {
            // H2's session setting counts milliseconds; JDBC's setQueryTimeout only whole seconds
            statement.execute("SET QUERY_TIMEOUT " + statementTimeout.toMillis());
            statement.setQueryTimeout((int) Math.max(1, (statementTimeout.toMillis() + 999) / 1000));
            statement.setMaxRows(rowCap + 1);
            ScheduledFuture<?> cancel = CANCELLER.schedule(() -> cancelQuietly(statement),
                    statementTimeout.plus(CANCEL_GRACE).toMillis(), TimeUnit.MILLISECONDS);
            try (ResultSet rs = statement.executeQuery(sql)) {
                return read(rs, rowCap);
            } finally {
                cancel.cancel(false);
            }
        } catch (SQLException e) {
            if (CANCELLED.equals(e.getSQLState())) {
                throw new ToolException("query cancelled: it ran longer than the " + statementTimeout.toMillis()
                        + " ms statement timeout; narrow it down");
            }
            throw new ToolException("SQL error: " + e.getMessage());
        }
    }

    private static void cancelQuietly(Statement statement) {
        try {
            statement.cancel();
        } catch (SQLException e) {
            // closed in the meantime: nothing left to cancel
        }
    }

    private static QueryResult read(ResultSet rs, int rowCap) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) columns.add(meta.getColumnLabel(c).toLowerCase());
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        long chars = 0;
        while (rs.next()) {
            if (rows.size() == rowCap) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(columns.size());
            for (int c = 1; c <= columns.size(); c++) {
                Object value = jsonValue(rs.getObject(c));
                chars += value == null ? 4 : value.toString().length();
                row.add(value);
            }
            if (chars > MAX_RESULT_CHARS && !rows.isEmpty()) {
                truncated = true;
                break;
            }
            rows.add(row);
        }
        return new QueryResult(columns, rows, truncated);
    }

    /** JDBC values as JSON-friendly ones: numbers, booleans and strings stay, dates become ISO text. */
    private static Object jsonValue(Object value) throws SQLException {
        if (value == null || value instanceof Number || value instanceof Boolean || value instanceof String) return value;
        if (value instanceof java.sql.Date d) return d.toLocalDate().toString();
        if (value instanceof Timestamp t) return t.toLocalDateTime().toString();
        if (value instanceof TemporalAccessor) return value.toString();
        if (value instanceof Clob clob) return clob.getSubString(1, (int) Math.min(MAX_RESULT_CHARS, clob.length()));
        if (value instanceof byte[] bytes) return "<" + bytes.length + " bytes>";
        return value.toString();
    }

    private String render(QueryResult result) {
        StringBuilder text = new StringBuilder(String.join(" | ", result.columns())).append('\n');
        for (List<Object> row : result.rows()) {
            List<String> cells = row.stream().map(v -> v == null ? "NULL" : v.toString()).toList();
            text.append(String.join(" | ", cells)).append('\n');
        }
        text.append(result.truncated()
                ? "(first " + result.rows().size() + " rows shown; the query returned more, narrow it down or aggregate)"
                : "(" + result.rows().size() + (result.rows().size() == 1 ? " row)" : " rows)"));
        return text.toString();
    }

    private static Map<String, Object> resultMap(QueryResult result) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("columns", result.columns());
        map.put("rows", result.rows());
        map.put("truncated", result.truncated());
        return map;
    }
}
