/**
 * The tool side: the tool SPI ({@code spi}: annotated methods, LangChain4j's <code>&#64;Tool</code>, stateful plugins;
 * {@code annotated}: {@code ToolClassSuite}, a class by name as a suite), {@code exec.ToolExecutor} (pool, timeout,
 * output cap, per-trajectory state, metrics), the built-in suites ({@code arithmetic}, {@code finance}, {@code email}
 * over Lucene, {@code sql} over H2, {@code hpo} over XGBoost; {@code BuiltinSuites}), TILE's CRYSTALLIZE
 * ({@code skills}: mining, composites, validation by replay, the skill library), MCP both ways ({@code mcp}) and code
 * actions in a sandbox ({@code codeact}).
 */
package dev.toolcoach.tools;
