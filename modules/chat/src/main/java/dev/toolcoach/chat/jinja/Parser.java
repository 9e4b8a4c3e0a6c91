package dev.toolcoach.chat.jinja;

import dev.toolcoach.chat.jinja.Ast.Block;
import dev.toolcoach.chat.jinja.Ast.Call;
import dev.toolcoach.chat.jinja.Ast.Conditional;
import dev.toolcoach.chat.jinja.Ast.Const;
import dev.toolcoach.chat.jinja.Ast.DictLit;
import dev.toolcoach.chat.jinja.Ast.Expr;
import dev.toolcoach.chat.jinja.Ast.Filter;
import dev.toolcoach.chat.jinja.Ast.FilterBlock;
import dev.toolcoach.chat.jinja.Ast.For;
import dev.toolcoach.chat.jinja.Ast.GetAttr;
import dev.toolcoach.chat.jinja.Ast.GetItem;
import dev.toolcoach.chat.jinja.Ast.If;
import dev.toolcoach.chat.jinja.Ast.ListLit;
import dev.toolcoach.chat.jinja.Ast.LoopControl;
import dev.toolcoach.chat.jinja.Ast.Macro;
import dev.toolcoach.chat.jinja.Ast.Name;
import dev.toolcoach.chat.jinja.Ast.Node;
import dev.toolcoach.chat.jinja.Ast.Output;
import dev.toolcoach.chat.jinja.Ast.SetBlock;
import dev.toolcoach.chat.jinja.Ast.Slice;
import dev.toolcoach.chat.jinja.Ast.Test;
import dev.toolcoach.chat.jinja.Ast.Text;
import dev.toolcoach.chat.jinja.Ast.TupleLit;
import dev.toolcoach.chat.jinja.Ast.Unary;
import dev.toolcoach.chat.jinja.Lexer.Piece;
import dev.toolcoach.chat.jinja.Lexer.Tok;
import dev.toolcoach.chat.jinja.Lexer.TokType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Recursive descent over the lexer's pieces, following jinja2's grammar and operator precedence. */
final class Parser {
    private final List<Piece> pieces;
    private int index;
    private List<Tok> toks;
    private int at;
    private int loopDepth;
    /** The keywords of the blocks being parsed, innermost first, to name an unclosed one. */
    private final java.util.ArrayDeque<Tok> openBlocks = new java.util.ArrayDeque<>();

    private Parser(List<Piece> pieces) {
        this.pieces = pieces;
    }

    static List<Node> parse(String source) {
        Parser p = new Parser(Lexer.lex(source));
        List<Node> body = p.body();
        if (p.index < p.pieces.size()) {
            Piece stray = p.pieces.get(p.index);
            throw new TemplateError("line " + stray.line() + ": unexpected '" + stray.tokens().get(0).value() + "'");
        }
        return body;
    }

    /** Statements up to (not consuming) a statement tag whose keyword ends this body, or the end of the template. */
    private List<Node> body(String... enders) {
        List<Node> nodes = new ArrayList<>();
        while (index < pieces.size()) {
            Piece piece = pieces.get(index);
            switch (piece.kind()) {
                case TEXT -> {
                    nodes.add(new Text(piece.text()));
                    index++;
                }
                case OUTPUT -> {
                    begin(piece);
                    nodes.add(new Output(expression()));
                    expectEnd();
                }
                case STATEMENT -> {
                    String keyword = piece.tokens().get(0).value();
                    for (String ender : enders) {
                        if (ender.equals(keyword)) {
                            return nodes;
                        }
                    }
                    begin(piece);
                    openBlocks.push(piece.tokens().get(0));
                    nodes.add(statement());
                    openBlocks.pop();
                }
            }
        }
        if (enders.length > 0) {
            Tok opened = openBlocks.peek();
            throw new TemplateError("line " + opened.line() + ": '" + opened.value() + "' is not closed (expected '"
                    + String.join("' or '", enders) + "' before the end of the template)");
        }
        return nodes;
    }

    private void begin(Piece piece) {
        toks = piece.tokens();
        at = 0;
        index++;
    }

    /** Consumes the statement tag that ended a body and returns its keyword. */
    private String closing() {
        Piece piece = pieces.get(index);
        begin(piece);
        return next().value();
    }

    private Node statement() {
        Tok keyword = next();
        if (keyword.type() != TokType.NAME) {
            throw error("expected a statement keyword, got '" + keyword.value() + "'");
        }
        switch (keyword.value()) {
            case "if" -> {
                List<Expr> tests = new ArrayList<>();
                List<List<Node>> bodies = new ArrayList<>();
                tests.add(expression());
                expectEnd();
                List<Node> otherwise = List.of();
                while (true) {
                    bodies.add(body("elif", "else", "endif"));
                    String tag = closing();
                    if (tag.equals("elif")) {
                        tests.add(expression());
                        expectEnd();
                    } else if (tag.equals("else")) {
                        expectEnd();
                        otherwise = body("endif");
                        closing();
                        expectEnd();
                        break;
                    } else {
                        expectEnd();
                        break;
                    }
                }
                return new If(tests, bodies, otherwise);
            }
            case "for" -> {
                List<String> targets = new ArrayList<>();
                boolean paren = accept("(");
                do {
                    targets.add(name());
                } while (accept(","));
                if (paren) {
                    expect(")");
                }
                expect("in");
                Expr iterable = orExpr();
                Expr filter = accept("if") ? expression() : null;
                if (accept("recursive")) {
                    throw error("recursive loops are not supported");
                }
                expectEnd();
                loopDepth++;
                List<Node> body = body("else", "endfor");
                loopDepth--;
                List<Node> otherwise = List.of();
                if (closing().equals("else")) {
                    expectEnd();
                    otherwise = body("endfor");
                    closing();
                }
                expectEnd();
                return new For(targets, iterable, filter, body, otherwise);
            }
            case "set" -> {
                String first = name();
                if (accept(".")) {
                    String attribute = name();
                    expect("=");
                    Expr value = expression();
                    expectEnd();
                    return new Ast.Set(List.of(first), attribute, value);
                }
                List<String> names = new ArrayList<>(List.of(first));
                while (accept(",")) {
                    names.add(name());
                }
                if (names.size() == 1 && peek().type() == TokType.END) {
                    expectEnd();
                    List<Node> body = body("endset");
                    closing();
                    expectEnd();
                    return new SetBlock(first, body);
                }
                expect("=");
                Expr value = tupleOrExpression();
                expectEnd();
                return new Ast.Set(names, null, value);
            }
            case "macro" -> {
                String name = name();
                List<String> params = new ArrayList<>();
                List<Expr> defaults = new ArrayList<>();
                expect("(");
                while (!accept(")")) {
                    params.add(name());
                    defaults.add(accept("=") ? expression() : null);
                    if (!peek().is(")")) {
                        expect(",");
                    }
                }
                expectEnd();
                int outerLoops = loopDepth;
                loopDepth = 0;
                List<Node> body = body("endmacro");
                loopDepth = outerLoops;
                closing();
                expectEnd();
                return new Macro(name, params, defaults, body);
            }
            case "break", "continue" -> {
                if (loopDepth == 0) {
                    throw error("'" + keyword.value() + "' outside a loop");
                }
                expectEnd();
                return keyword.value().equals("break") ? LoopControl.BREAK : LoopControl.CONTINUE;
            }
            case "filter" -> {
                Filter filter = filter(new Const(null)); // applied to the body's text
                expectEnd();
                List<Node> body = body("endfilter");
                closing();
                expectEnd();
                return new FilterBlock(filter, body);
            }
            case "generation" -> {
                expectEnd();
                List<Node> body = body("endgeneration");
                closing();
                expectEnd();
                return new Block(body);
            }
            default -> throw error("unknown statement '" + keyword.value() + "'");
        }
    }

    // ---- expressions, by jinja2's precedence ----

    Expr expression() {
        Expr value = orExpr();
        if (accept("if")) {
            Expr test = orExpr();
            Expr otherwise = accept("else") ? expression() : null;
            return new Conditional(test, value, otherwise);
        }
        return value;
    }

    /** A bare tuple ({@code a, b}) where jinja2 allows one, else one expression. */
    private Expr tupleOrExpression() {
        Expr first = expression();
        if (!peek().is(",")) {
            return first;
        }
        List<Expr> items = new ArrayList<>(List.of(first));
        while (accept(",")) {
            if (peek().type() == TokType.END) {
                break;
            }
            items.add(expression());
        }
        return new TupleLit(items);
    }

    private Expr orExpr() {
        Expr left = andExpr();
        while (accept("or")) {
            left = new Ast.Binary("or", left, andExpr());
        }
        return left;
    }

    private Expr andExpr() {
        Expr left = notExpr();
        while (accept("and")) {
            left = new Ast.Binary("and", left, notExpr());
        }
        return left;
    }

    private Expr notExpr() {
        if (accept("not")) {
            return new Unary("not", notExpr());
        }
        return compare();
    }

    private Expr compare() {
        Expr left = math1();
        Expr result = null;
        while (true) {
            String op;
            Tok t = peek();
            if (t.type() == TokType.OP && List.of("==", "!=", "<", ">", "<=", ">=").contains(t.value())) {
                op = next().value();
            } else if (t.is("in")) {
                next();
                op = "in";
            } else if (t.is("not") && peekAt(1).is("in")) {
                next();
                next();
                op = "not in";
            } else {
                return result == null ? left : result;
            }
            Expr right = math1();
            Expr comparison = new Ast.Binary(op, left, right);
            result = result == null ? comparison : new Ast.Binary("and", result, comparison); // a < b < c
            left = right;
        }
    }

    private Expr math1() {
        Expr left = concat();
        while (peek().is("+") || peek().is("-")) {
            String op = next().value();
            left = new Ast.Binary(op, left, concat());
        }
        return left;
    }

    private Expr concat() {
        Expr left = math2();
        while (accept("~")) {
            left = new Ast.Binary("~", left, math2());
        }
        return left;
    }

    private Expr math2() {
        Expr left = pow();
        while (peek().is("*") || peek().is("/") || peek().is("//") || peek().is("%")) {
            String op = next().value();
            left = new Ast.Binary(op, left, pow());
        }
        return left;
    }

    private Expr pow() {
        Expr left = unary(true);
        while (accept("**")) {
            left = new Ast.Binary("**", left, unary(true));
        }
        return left;
    }

    private Expr unary(boolean withFilter) {
        Expr node;
        if (peek().is("-") || peek().is("+")) {
            String op = next().value();
            node = new Unary(op, unary(false));
        } else {
            node = postfix(primary());
        }
        return withFilter ? filterExpr(node) : node;
    }

    private Expr filterExpr(Expr node) {
        while (true) {
            if (accept("|")) {
                node = filter(node);
            } else if (accept("is")) {
                boolean negated = accept("not");
                String name = dottedName();
                List<Expr> args = new ArrayList<>();
                Tok t = peek();
                if (t.is("(")) {
                    Call call = callArgs(new Name(name));
                    args.addAll(call.args());
                } else if ((t.type() == TokType.NAME && !List.of("else", "or", "and", "is", "if", "in", "not").contains(t.value()))
                        || t.type() == TokType.STRING || t.type() == TokType.INT || t.type() == TokType.FLOAT
                        || t.is("[") || t.is("{")) {
                    args.add(postfix(primary()));
                }
                node = new Test(node, name, args, negated);
            } else if (peek().is("(")) {
                node = callArgs(node);
            } else {
                return node;
            }
        }
    }

    private Filter filter(Expr value) {
        String name = dottedName();
        if (peek().is("(")) {
            Call call = callArgs(new Name(name));
            return new Filter(value, name, call.args(), call.kwargs());
        }
        return new Filter(value, name, List.of(), Map.of());
    }

    private String dottedName() {
        StringBuilder name = new StringBuilder(name());
        while (accept(".")) {
            name.append('.').append(name());
        }
        return name.toString();
    }

    private Expr postfix(Expr node) {
        while (true) {
            if (accept(".")) {
                Tok t = next();
                if (t.type() == TokType.INT) {
                    node = new GetItem(node, new Const(Long.parseLong(t.value())));
                } else if (t.type() == TokType.NAME) {
                    node = new GetAttr(node, t.value());
                } else {
                    throw error("expected an attribute name after '.', got '" + t.value() + "'");
                }
            } else if (accept("[")) {
                node = subscript(node);
            } else if (peek().is("(")) {
                node = callArgs(node);
            } else {
                return node;
            }
        }
    }

    private Expr subscript(Expr target) {
        Expr[] parts = new Expr[3];
        int part = 0;
        boolean slice = false;
        while (!peek().is("]")) {
            if (accept(":")) {
                slice = true;
                part++;
                if (part > 2) {
                    throw error("too many ':' in a slice");
                }
                continue;
            }
            parts[part] = expression();
            if (!peek().is("]") && !peek().is(":")) {
                throw error("expected ']' or ':', got '" + peek().value() + "'");
            }
        }
        expect("]");
        if (!slice) {
            if (parts[0] == null) {
                throw error("empty subscript");
            }
            return new GetItem(target, parts[0]);
        }
        return new Slice(target, parts[0], parts[1], parts[2]);
    }

    private Call callArgs(Expr callee) {
        expect("(");
        List<Expr> args = new ArrayList<>();
        Map<String, Expr> kwargs = new LinkedHashMap<>();
        while (!accept(")")) {
            if (peek().type() == TokType.NAME && peekAt(1).is("=")) {
                String key = next().value();
                next();
                kwargs.put(key, expression());
            } else {
                if (!kwargs.isEmpty()) {
                    throw error("positional argument after a keyword argument");
                }
                args.add(expression());
            }
            if (!peek().is(")")) {
                expect(",");
            }
        }
        return new Call(callee, args, kwargs);
    }

    private Expr primary() {
        Tok t = next();
        switch (t.type()) {
            case NAME -> {
                return switch (t.value()) {
                    case "true", "True" -> new Const(Boolean.TRUE);
                    case "false", "False" -> new Const(Boolean.FALSE);
                    case "none", "None" -> new Const(null);
                    default -> new Name(t.value());
                };
            }
            case STRING -> {
                StringBuilder s = new StringBuilder(t.value());
                while (peek().type() == TokType.STRING) { // adjacent literals concatenate
                    s.append(next().value());
                }
                return new Const(s.toString());
            }
            case INT -> {
                return new Const(Long.parseLong(t.value()));
            }
            case FLOAT -> {
                return new Const(Double.parseDouble(t.value()));
            }
            case OP -> {
                if (t.value().equals("(")) {
                    if (accept(")")) {
                        return new TupleLit(List.of());
                    }
                    Expr first = expression();
                    if (accept(")")) {
                        return first;
                    }
                    List<Expr> items = new ArrayList<>(List.of(first));
                    while (accept(",")) {
                        if (peek().is(")")) {
                            break;
                        }
                        items.add(expression());
                    }
                    expect(")");
                    return new TupleLit(items);
                }
                if (t.value().equals("[")) {
                    List<Expr> items = new ArrayList<>();
                    while (!accept("]")) {
                        items.add(expression());
                        if (!peek().is("]")) {
                            expect(",");
                        }
                    }
                    return new ListLit(items);
                }
                if (t.value().equals("{")) {
                    List<Expr> keys = new ArrayList<>();
                    List<Expr> values = new ArrayList<>();
                    while (!accept("}")) {
                        keys.add(expression());
                        expect(":");
                        values.add(expression());
                        if (!peek().is("}")) {
                            expect(",");
                        }
                    }
                    return new DictLit(keys, values);
                }
                throw error("unexpected '" + t.value() + "'");
            }
            default -> throw error("unexpected end of expression");
        }
    }

    // ---- tokens ----

    private Tok peek() {
        return toks.get(at);
    }

    private Tok peekAt(int ahead) {
        return toks.get(Math.min(at + ahead, toks.size() - 1));
    }

    private Tok next() {
        Tok t = toks.get(at);
        if (t.type() != TokType.END) {
            at++;
        }
        return t;
    }

    private boolean accept(String op) {
        Tok t = peek();
        if (t.type() != TokType.STRING && t.type() != TokType.END && t.value().equals(op)) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(String op) {
        if (!accept(op)) {
            throw error("expected '" + op + "', got '" + peek().value() + "'");
        }
    }

    private void expectEnd() {
        if (peek().type() != TokType.END) {
            throw error("expected the end of the tag, got '" + peek().value() + "'");
        }
    }

    private String name() {
        Tok t = next();
        if (t.type() != TokType.NAME) {
            throw error("expected a name, got '" + t.value() + "'");
        }
        return t.value();
    }

    private TemplateError error(String message) {
        return new TemplateError("line " + peek().line() + ": " + message);
    }
}
