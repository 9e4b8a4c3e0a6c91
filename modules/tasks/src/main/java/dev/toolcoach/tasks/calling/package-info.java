/**
 * BFCL's AST call checker. {@code CallChecker} follows gorilla's ast_checker.py rule for rule, with its "variable"
 * rule, null answers and greedy parallel matching; the Java and JavaScript categories' source-text values are read by
 * {@code JavaSyntax}/{@code JsSyntax}, ports of BFCL's type converters with their quirks, chosen by the category's
 * {@code SourceLanguage} (which also writes Java/JavaScript functions as a prompt offers them,
 * {@code SourceLanguage.forPrompt}). {@code CallChecker.schemaStrict()} keeps training datasets' gold calls to their
 * schemas, while BFCL questions are kept and those whose own gold BFCL scores wrong named, as BFCL scores them.
 * {@code CallMatchReward} is Tool-N1's reward (only for a function-calling task).
 */
package dev.toolcoach.tasks.calling;
