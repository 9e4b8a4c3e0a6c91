package dev.toolcoach.tools.sql;

import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolOutput;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlToolsTest {

    private static SqlDatabase database;
    private static SqlTools sql;

    @BeforeAll
    static void open() {
        database = SqlDatabase.sampleCompany();
        sql = new SqlTools(database, Duration.ofMillis(300), 5);
    }

    @AfterAll
    static void close() throws SQLException {
        database.close();
    }

    @Test
    void queryReturnsRowsAsTextAndStructuredJson() throws ToolException {
        ToolOutput out = sql.runSql("SELECT d.name, COUNT(*) AS staff, SUM(e.salary) AS payroll FROM employees e"
                + " JOIN departments d ON d.id = e.department_id GROUP BY d.name ORDER BY d.name");
        assertEquals("name | staff | payroll\nEngineering | 4 | 645500.00\nFinance | 3 | 493000.00\n"
                + "Legal | 2 | 323000.00\nTrading | 3 | 533000.00\n(4 rows)", out.text());
        Map<?, ?> structured = (Map<?, ?>) out.structured();
        assertEquals(List.of("name", "staff", "payroll"), structured.get("columns"));
        assertEquals(List.of("Engineering", 4L, new BigDecimal("645500.00")), ((List<?>) structured.get("rows")).get(0));
        assertEquals(false, structured.get("truncated"));
    }

    @Test
    void datesComeBackAsIsoText() throws ToolException {
        ToolOutput out = sql.runSql("SELECT hire_date FROM employees WHERE name = 'Grace Hopper'");
        assertEquals(List.of(List.of("2016-07-15")), ((Map<?, ?>) out.structured()).get("rows"));
    }

    @Test
    void rowsAreCappedAndTheCutIsSaid() throws ToolException {
        ToolOutput out = sql.runSql("SELECT id FROM employees ORDER BY id");
        assertEquals(List.of(List.of(1), List.of(2), List.of(3), List.of(4), List.of(5)), ((Map<?, ?>) out.structured()).get("rows"));
        assertEquals(true, ((Map<?, ?>) out.structured()).get("truncated"));
        assertTrue(out.text().endsWith("(first 5 rows shown; the query returned more, narrow it down or aggregate)"), out.text());
    }

    @Test
    void writesAndSeveralStatementsAreRefusedBeforeReachingTheDatabase() {
        assertEquals("the database is read-only: only queries (SELECT, WITH, VALUES, TABLE, SHOW) are allowed, not DELETE",
                assertThrows(ToolException.class, () -> sql.runSql("DELETE FROM employees")).getMessage());
        assertEquals("the database is read-only: only queries (SELECT, WITH, VALUES, TABLE, SHOW) are allowed, not DROP",
                assertThrows(ToolException.class, () -> sql.runSql("/* harmless */ DROP TABLE employees")).getMessage());
        assertEquals("only one statement can run at a time",
                assertThrows(ToolException.class, () -> sql.runSql("SELECT 1; UPDATE employees SET salary = 0")).getMessage());
        assertEquals("the query is empty", assertThrows(ToolException.class, () -> sql.runSql("  -- nothing\n")).getMessage());
    }

    @Test
    void semicolonsInsideStringsAndATrailingSemicolonAreFine() throws ToolException {
        ToolOutput out = sql.runSql("SELECT 'a;b' AS s, \"NAME\" FROM employees WHERE id = 1;");
        assertEquals(List.of(List.of("a;b", "Ada Lovelace")), ((Map<?, ?>) out.structured()).get("rows"));
    }

    @Test
    void theDatabaseItselfRefusesWritesFromTheToolAccount() throws SQLException {
        // past the statement check, the account has SELECT rights only
        try (Connection c = database.readerConnection(); Statement s = c.createStatement()) {
            SQLException denied = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE employees SET salary = 0"));
            assertTrue(denied.getMessage().contains("Not enough rights"), denied.getMessage());
            assertThrows(SQLException.class, () -> s.execute("CREATE TABLE t(x INT)"));
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM CSVREAD('/etc/passwd')"));
        }
    }

    @Test
    void aRunawayQueryIsCancelledAtTheStatementTimeout() {
        long start = System.nanoTime();
        ToolException e = assertThrows(ToolException.class, () -> sql.runSql("SELECT COUNT(*) FROM employees a, employees b,"
                + " employees c, employees d, employees e, employees f, employees g, employees h WHERE a.id + b.id + c.id + d.id"
                + " + e.id + f.id + g.id + h.id = 7"));
        assertEquals("query cancelled: it ran longer than the 300 ms statement timeout; narrow it down", e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(3).toNanos(), "stopped near its timeout");
    }

    @Test
    void queriesThatBuildHugeValuesOrRunRegularExpressionsAreRefusedByName() {
        String repeat = assertThrows(ToolException.class, () -> sql.runSql("SELECT LENGTH(REPEAT('x', 1000000000))")).getMessage();
        assertTrue(repeat.startsWith("function REPEAT is not allowed: only functions whose results stay small"), repeat);
        assertTrue(repeat.contains("COUNT") && repeat.contains("UPPER"), "the allowed functions are named: " + repeat);
        String regex = assertThrows(ToolException.class, () -> sql.runSql(
                "SELECT REGEXP_LIKE(REPEAT('a', 30) || 'b', '^(a+)+$') FROM employees")).getMessage();
        assertTrue(regex.startsWith("function REGEXP_LIKE is not allowed"), regex);
        assertEquals("REGEXP is not allowed: regular expressions can run without end inside one row", assertThrows(ToolException.class,
                () -> sql.runSql("SELECT name FROM employees WHERE name REGEXP '(a|aa)+$'")).getMessage());
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("select lpad('x', 999999999, 'y')")).getMessage()
                .startsWith("function LPAD is not allowed"));
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("SELECT CAST('x' AS CHAR(1000000000))")).getMessage()
                .startsWith("function CHAR is not allowed"), "a padded type is a way to build a huge value too");
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("SELECT * FROM \"SYSTEM_RANGE\"(1, 10)")).getMessage()
                .startsWith("function X is not allowed"), "a quoted name is not a way around the list");
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1"
                + " FROM t) SELECT n FROM t")).getMessage().startsWith("RECURSIVE is not allowed"));
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("SELECT '" + "y".repeat(5_000) + "'")).getMessage()
                .startsWith("the query is 5009 characters long"));
    }

    @Test
    void everydayQueriesWithFunctionsSubqueriesWindowsAndCtesStillRun() throws ToolException {
        ToolOutput out = sql.runSql("WITH staff(dept, n) AS (SELECT department_id, COUNT(*) FROM employees GROUP BY department_id)"
                + " SELECT UPPER(LEFT(d.name, 3)) AS code, s.n, RANK() OVER (ORDER BY s.n DESC) AS r,"
                + " ROUND(AVG(CAST(e.salary AS DECIMAL(12, 2))), 0) AS mean, COALESCE(MAX(YEAR(e.hire_date)), 0) AS newest"
                + " FROM departments d JOIN staff s ON (s.dept = d.id) JOIN employees e ON e.department_id = d.id"
                + " WHERE d.id IN (SELECT department_id FROM employees WHERE salary > 0) AND e.name LIKE '%a%'"
                + " GROUP BY d.name, s.n ORDER BY r, code");
        assertTrue(out.text().startsWith("code | n | r | mean | newest\n"), out.text());
        ToolOutput two = sql.runSql("WITH a(x) AS (SELECT id FROM employees), b(y) AS (SELECT x FROM a WHERE x < 3)"
                + " SELECT COUNT(*) AS n FROM b");
        assertEquals("n\n2\n(1 row)", two.text(), "the second query's column list is not a function call");
        assertTrue(assertThrows(ToolException.class, () -> sql.runSql("WITH a(x) AS (SELECT REPEAT('x', 9) FROM employees)"
                + " SELECT x FROM a")).getMessage().startsWith("function REPEAT is not allowed"));
    }

    @Test
    void sqlErrorsAreReportedWithTheDatabasesMessage() {
        ToolException e = assertThrows(ToolException.class, () -> sql.runSql("SELECT nope FROM employees"));
        assertTrue(e.getMessage().startsWith("SQL error: Column \"NOPE\" not found"), e.getMessage());
    }

    @Test
    void listTablesShowsColumnsAndTypes() throws ToolException {
        ToolOutput out = sql.listTables();
        assertTrue(out.text().contains("employees(id INTEGER, name CHARACTER VARYING, title CHARACTER VARYING, department_id INTEGER,"
                + " manager_id INTEGER, salary NUMERIC, hire_date DATE)"), out.text());
        assertEquals(List.of("assignments", "departments", "employees", "projects"),
                List.copyOf(((Map<?, ?>) out.structured()).keySet()));
    }
}
