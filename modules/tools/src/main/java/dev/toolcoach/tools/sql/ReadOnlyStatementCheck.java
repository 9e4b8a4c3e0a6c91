package dev.toolcoach.tools.sql;

import java.util.Locale;
import java.util.Set;

/**
 * A first line of defence before the database's own (a user with SELECT rights only): one
 * statement, and it must be a query. Comments and quoted text are skipped while looking, so a
 * {@code ;} inside a string does not count as a second statement.
 */
final class ReadOnlyStatementCheck {

    private static final Set<String> QUERY_KEYWORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "SHOW");

    private ReadOnlyStatementCheck() {
    }

    /** Why the SQL may not run, or null when it is a single query. */
    static String problem(String sql) {
        String code = withoutCommentsAndLiterals(sql).strip();
        if (code.endsWith(";")) code = code.substring(0, code.length() - 1).strip();
        if (code.isEmpty()) return "the query is empty";
        if (code.contains(";")) return "only one statement can run at a time";
        String first = code.split("[\\s(]+", 2)[0].toUpperCase(Locale.ROOT);
        if (!QUERY_KEYWORDS.contains(first)) {
            return "the database is read-only: only queries (SELECT, WITH, VALUES, TABLE, SHOW) are allowed, not " + first;
        }
        return null;
    }

    /** The SQL with comments removed and each quoted string or identifier replaced by a blank placeholder. */
    static String withoutCommentsAndLiterals(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
                out.append(' ');
            } else if (c == '\'' || c == '"') {
                i = endOfQuoted(sql, i, c);
                out.append(" x ");
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Index after the closing quote; a doubled quote inside is an escaped quote. */
    private static int endOfQuoted(String sql, int open, char quote) {
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) i += 2;
                else return i + 1;
            } else {
                i++;
            }
        }
        return sql.length();
    }
}
