package dev.toolcoach.tools.sql;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A first line of defence before the database's own (a user with SELECT rights only): one
 * statement, and it must be a query. Comments and quoted text are skipped while looking, so a
 * {@code ;} inside a string does not count as a second statement.
 *
 * <p>A read-only query can still exhaust the process: {@code REPEAT('x', 1000000000)} builds a gigabyte string, and
 * a regular expression with catastrophic backtracking runs inside one row, where the database's timeout never looks.
 * So every function called must be on an allow-list of functions whose results stay about the size of their
 * arguments and that the timeout can stop (aggregates, arithmetic, plain string and date functions); anything else
 * (REPEAT, SPACE, LPAD, REPLACE, regular expressions, table functions, aggregates that concatenate, file access) is
 * refused by name, as are {@code REGEXP}, recursive queries and over-long queries. The check is on tokens outside
 * comments and literals: a word followed by {@code (} is a call unless it is a keyword that may stand there.
 */
final class ReadOnlyStatementCheck {

    private static final Set<String> QUERY_KEYWORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "SHOW");
    /** Longer queries are refused: a query's literals bound what it can build, so its length bounds them. */
    static final int MAX_QUERY_CHARS = 4_000;
    /** Functions a query may call. */
    static final Set<String> ALLOWED_FUNCTIONS = Set.of(
            // aggregates
            "COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "MEDIAN",
            "EVERY", "BOOL_AND", "BOOL_OR",
            // window functions
            "ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LAG", "LEAD", "FIRST_VALUE",
            "LAST_VALUE",
            // numbers
            "ABS", "ROUND", "FLOOR", "CEIL", "CEILING", "MOD", "POWER", "SQRT", "SIGN", "TRUNC", "TRUNCATE", "LN", "LOG",
            "LOG10", "EXP", "GREATEST", "LEAST",
            // strings whose result is no longer than their arguments together
            "UPPER", "LOWER", "UCASE", "LCASE", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH", "TRIM", "LTRIM", "RTRIM",
            "SUBSTRING", "SUBSTR", "LEFT", "RIGHT", "POSITION", "LOCATE", "INSTR", "CONCAT",
            // nulls, types
            "COALESCE", "NULLIF", "IFNULL", "NVL", "CAST", "EXTRACT",
            // dates
            "YEAR", "MONTH", "DAY", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "QUARTER", "WEEK", "HOUR", "MINUTE", "SECOND",
            "DATEDIFF", "DATEADD", "TIMESTAMPDIFF", "TIMESTAMPADD", "DATE_TRUNC", "CURRENT_DATE", "CURRENT_TIMESTAMP", "NOW");
    /** Words that may stand before {@code (} without calling anything (subqueries, lists, windows, sized types). */
    private static final Set<String> KEYWORDS_BEFORE_PAREN = Set.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN",
            "EXISTS", "ON", "AS", "VALUES", "OVER", "FILTER", "USING", "JOIN", "UNION", "ALL", "ANY", "SOME", "WITH", "BY",
            "HAVING", "THEN", "ELSE", "WHEN", "CASE", "LIKE", "BETWEEN", "IS", "DISTINCT", "INTERSECT", "EXCEPT", "MINUS",
            "LATERAL", "ROW", "WITHIN", "GROUP", "ORDER", "LIMIT", "OFFSET", "FETCH", "TABLE", "VARCHAR", "VARYING",
            "DECIMAL", "NUMERIC");
    /** Words refused wherever they stand: regular expressions cannot be stopped, recursion can grow without end. */
    private static final Set<String> REFUSED_WORDS = Set.of("REGEXP", "RECURSIVE");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final Pattern AS_SUBQUERY = Pattern.compile("\\s*AS\\s*\\(", Pattern.CASE_INSENSITIVE);

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
        if (sql.length() > MAX_QUERY_CHARS) {
            return "the query is " + sql.length() + " characters long; at most " + MAX_QUERY_CHARS + " are allowed";
        }
        return functionProblem(code);
    }

    /** The first refused word or function call in the code (comments and literals already blanked), or null. */
    private static String functionProblem(String code) {
        Matcher word = WORD.matcher(code);
        String previous = "";
        while (word.find()) {
            String name = word.group().toUpperCase(Locale.ROOT);
            if (REFUSED_WORDS.contains(name)) {
                return name + " is not allowed: " + (name.equals("REGEXP")
                        ? "regular expressions can run without end inside one row" : "recursive queries can grow without end");
            }
            int next = word.end();
            while (next < code.length() && Character.isWhitespace(code.charAt(next))) next++;
            boolean call = next < code.length() && code.charAt(next) == '(';
            boolean cteName = call && (previous.equals("WITH") || namesColumnsOfASubquery(code, next)); // name(columns) AS (...)
            if (call && !cteName && !KEYWORDS_BEFORE_PAREN.contains(name) && !ALLOWED_FUNCTIONS.contains(name)) {
                return "function " + name + " is not allowed: only functions whose results stay small and that the timeout"
                        + " can stop may be called: " + String.join(", ", new TreeSet<>(ALLOWED_FUNCTIONS));
            }
            previous = name;
        }
        return null;
    }

    /** Whether the parenthesis at {@code open} closes before {@code AS (}: a query's name with its column names. */
    private static boolean namesColumnsOfASubquery(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return AS_SUBQUERY.matcher(code).region(i + 1, code.length()).lookingAt();
        }
        return false;
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
