/**
 * The SQL suite (H2). It checks a query before the database sees it ({@code ReadOnlyStatementCheck}: one query; at most
 * 4,000 characters; every function called on an allow-list of functions whose results stay about the size of their
 * arguments, so {@code REPEAT}, padding, {@code REPLACE}, regular expressions, {@code REGEXP}, {@code RECURSIVE}, table
 * functions and concatenating aggregates are refused by name) and enforces its timeout three ways (H2's session
 * timeout, JDBC {@code setQueryTimeout}, a {@code Statement.cancel} 200 ms after); a result holds at most
 * {@code max-rows} rows and 20,000 characters of values.
 */
package dev.toolcoach.tools.sql;
