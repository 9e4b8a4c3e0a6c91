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
        ToolException e = assertThrows(ToolException.class, () -> sql.runSql(
                "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 100000) a, SYSTEM_RANGE(1, 100000) b WHERE a.x + b.x = 7"));
        assertEquals("query cancelled: it ran longer than the 300 ms statement timeout; narrow it down", e.getMessage());
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
