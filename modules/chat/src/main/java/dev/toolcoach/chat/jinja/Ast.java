package dev.toolcoach.chat.jinja;

import java.util.List;
import java.util.Map;

/** The parsed template: statements ({@link Node}) and expressions ({@link Expr}), as jinja2's nodes. */
final class Ast {
    private Ast() {
    }

    sealed interface Expr {
    }

    record Const(Object value) implements Expr {
    }

    record Name(String name) implements Expr {
    }

    record ListLit(List<Expr> items) implements Expr {
    }

    record TupleLit(List<Expr> items) implements Expr {
    }

    record DictLit(List<Expr> keys, List<Expr> values) implements Expr {
    }

    record GetAttr(Expr target, String name) implements Expr {
    }

    record GetItem(Expr target, Expr index) implements Expr {
    }

    /** {@code target[start:stop:step]}; absent parts are null. */
    record Slice(Expr target, Expr start, Expr stop, Expr step) implements Expr {
    }

    record Call(Expr callee, List<Expr> args, Map<String, Expr> kwargs) implements Expr {
    }

    record Filter(Expr value, String name, List<Expr> args, Map<String, Expr> kwargs) implements Expr {
    }

    record Test(Expr value, String name, List<Expr> args, boolean negated) implements Expr {
    }

    /** {@code not}, unary {@code -} and {@code +}. */
    record Unary(String op, Expr operand) implements Expr {
    }

    /** and, or, arithmetic, {@code ~}, comparisons, {@code in} and {@code not in}. */
    record Binary(String op, Expr left, Expr right) implements Expr {
    }

    record Conditional(Expr test, Expr then, Expr otherwise) implements Expr {
    }

    sealed interface Node {
    }

    record Text(String text) implements Node {
    }

    record Output(Expr value) implements Node {
    }

    record If(List<Expr> tests, List<List<Node>> bodies, List<Node> otherwise) implements Node {
    }

    /** {@code for targets in iterable [if filter]}; several targets unpack each item. */
    record For(List<String> targets, Expr iterable, Expr filter, List<Node> body, List<Node> otherwise) implements Node {
    }

    /** {@code set name = value}, {@code set a, b = value}, or {@code set ns.attr = value} (attribute non-null). */
    record Set(List<String> names, String attribute, Expr value) implements Node {
    }

    record SetBlock(String name, List<Node> body) implements Node {
    }

    record Macro(String name, List<String> params, List<Expr> defaults, List<Node> body) implements Node {
    }

    record FilterBlock(Filter filter, List<Node> body) implements Node {
    }

    /** The statements of a block that needs no behaviour of its own (Transformers' {@code generation}). */
    record Block(List<Node> body) implements Node {
    }

    enum LoopControl implements Node { BREAK, CONTINUE }
}
