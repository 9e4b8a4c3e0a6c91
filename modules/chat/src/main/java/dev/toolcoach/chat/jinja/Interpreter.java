package dev.toolcoach.chat.jinja;

import dev.toolcoach.chat.jinja.Ast.Binary;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Walks the parsed template over Python-like values ({@link Py}), writing the output. */
final class Interpreter {
    /** Bounds that keep a hostile or broken template from taking the process down. */
    private static final int MAX_OUTPUT = 10_000_000;
    private static final int MAX_CALL_DEPTH = 200;

    private enum Flow { NORMAL, BREAK, CONTINUE }

    /** Variables: a loop iteration or a macro call opens a scope; {@code if} does not (as in jinja2). */
    static final class Scope {
        private final Map<String, Object> vars = new HashMap<>();
        private final Scope parent;

        Scope(Scope parent) {
            this.parent = parent;
        }

        Object get(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                if (s.vars.containsKey(name)) {
                    return s.vars.get(name);
                }
            }
            return new Undefined("'" + name + "' is undefined");
        }

        void set(String name, Object value) {
            vars.put(name, value);
        }
    }

    private int callDepth;

    String render(List<Node> template, Scope scope) {
        StringBuilder out = new StringBuilder();
        exec(template, scope, out);
        return out.toString();
    }

    private Flow exec(List<Node> nodes, Scope scope, StringBuilder out) {
        for (Node node : nodes) {
            Flow flow = exec(node, scope, out);
            if (flow != Flow.NORMAL) {
                return flow;
            }
            if (out.length() > MAX_OUTPUT) {
                throw new TemplateError("the template's output exceeds " + MAX_OUTPUT + " characters");
            }
        }
        return Flow.NORMAL;
    }

    private Flow exec(Node node, Scope scope, StringBuilder out) {
        if (node instanceof Text t) {
            out.append(t.text());
        } else if (node instanceof Output o) {
            out.append(Py.str(eval(o.value(), scope)));
        } else if (node instanceof If f) {
            for (int i = 0; i < f.tests().size(); i++) {
                if (Py.truthy(eval(f.tests().get(i), scope))) {
                    return exec(f.bodies().get(i), scope, out);
                }
            }
            return exec(f.otherwise(), scope, out);
        } else if (node instanceof For f) {
            return loop(f, scope, out);
        } else if (node instanceof Ast.Set s) {
            assign(s, scope);
        } else if (node instanceof SetBlock s) {
            StringBuilder body = new StringBuilder();
            exec(s.body(), scope, body);
            scope.set(s.name(), body.toString());
        } else if (node instanceof Macro m) {
            scope.set(m.name(), macro(m, scope));
        } else if (node instanceof FilterBlock f) {
            StringBuilder body = new StringBuilder();
            exec(f.body(), scope, body);
            Filter filter = f.filter();
            out.append(Py.str(Builtins.filter(filter.name(), body.toString(), values(filter.args(), scope), values(filter.kwargs(), scope))));
        } else if (node instanceof Block b) {
            return exec(b.body(), scope, out);
        } else if (node == LoopControl.BREAK) {
            return Flow.BREAK;
        } else if (node == LoopControl.CONTINUE) {
            return Flow.CONTINUE;
        }
        return Flow.NORMAL;
    }

    private Flow loop(For f, Scope scope, StringBuilder out) {
        List<Object> items = Py.iterate(eval(f.iterable(), scope));
        if (f.filter() != null) {
            List<Object> kept = new ArrayList<>();
            for (Object item : items) {
                Scope probe = new Scope(scope);
                bind(f.targets(), item, probe);
                if (Py.truthy(eval(f.filter(), probe))) {
                    kept.add(item);
                }
            }
            items = kept;
        }
        if (items.isEmpty()) {
            return exec(f.otherwise(), scope, out);
        }
        LoopInfo info = new LoopInfo(items);
        for (int i = 0; i < items.size(); i++) {
            Scope iteration = new Scope(scope);
            info.index0 = i;
            iteration.set("loop", info);
            bind(f.targets(), items.get(i), iteration);
            if (exec(f.body(), iteration, out) == Flow.BREAK) {
                break;
            }
        }
        return Flow.NORMAL;
    }

    private static void bind(List<String> targets, Object item, Scope scope) {
        if (targets.size() == 1) {
            scope.set(targets.get(0), item);
            return;
        }
        List<Object> parts = Py.iterate(item);
        if (parts.size() != targets.size()) {
            throw new TemplateError("cannot unpack " + parts.size() + " values into " + targets.size() + " names");
        }
        for (int i = 0; i < targets.size(); i++) {
            scope.set(targets.get(i), parts.get(i));
        }
    }

    private void assign(Ast.Set s, Scope scope) {
        Object value = eval(s.value(), scope);
        if (s.attribute() != null) {
            Object target = scope.get(s.names().get(0));
            if (!(target instanceof Namespace ns)) {
                throw new TemplateError("cannot assign attribute on non-namespace object");
            }
            ns.attributes.put(s.attribute(), value);
        } else {
            bind(s.names(), value, scope);
        }
    }

    private PyCallable macro(Macro m, Scope defining) {
        return (args, kwargs) -> {
            if (args.size() > m.params().size()) {
                throw new TemplateError("macro '" + m.name() + "' takes not more than " + m.params().size() + " argument(s)");
            }
            Scope call = new Scope(defining);
            for (int i = 0; i < m.params().size(); i++) {
                String param = m.params().get(i);
                Object value;
                if (i < args.size()) {
                    value = args.get(i);
                } else if (kwargs.containsKey(param)) {
                    value = kwargs.get(param);
                } else if (m.defaults().get(i) != null) {
                    value = eval(m.defaults().get(i), call);
                } else {
                    value = new Undefined("'" + param + "' is undefined");
                }
                call.set(param, value);
            }
            for (String key : kwargs.keySet()) {
                if (!m.params().contains(key)) {
                    throw new TemplateError("macro '" + m.name() + "' takes no keyword argument '" + key + "'");
                }
            }
            if (++callDepth > MAX_CALL_DEPTH) {
                throw new TemplateError("macro calls nested deeper than " + MAX_CALL_DEPTH);
            }
            try {
                StringBuilder body = new StringBuilder();
                exec(m.body(), call, body);
                return body.toString();
            } finally {
                callDepth--;
            }
        };
    }

    // ---- expressions ----

    Object eval(Expr e, Scope scope) {
        if (e instanceof Const c) {
            return c.value();
        }
        if (e instanceof Name n) {
            return scope.get(n.name());
        }
        if (e instanceof GetAttr a) {
            return Py.getAttr(eval(a.target(), scope), a.name());
        }
        if (e instanceof GetItem g) {
            return Py.getItem(eval(g.target(), scope), eval(g.index(), scope));
        }
        if (e instanceof Slice s) {
            return Py.slice(eval(s.target(), scope), optional(s.start(), scope), optional(s.stop(), scope), optional(s.step(), scope));
        }
        if (e instanceof ListLit l) {
            return values(l.items(), scope);
        }
        if (e instanceof TupleLit t) {
            return new Tuple(values(t.items(), scope));
        }
        if (e instanceof DictLit d) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < d.keys().size(); i++) {
                out.put(eval(d.keys().get(i), scope), eval(d.values().get(i), scope));
            }
            return out;
        }
        if (e instanceof Unary u) {
            Object v = eval(u.operand(), scope);
            if (u.op().equals("not")) {
                return !Py.truthy(v);
            }
            if (!Py.isNumber(v)) {
                throw v instanceof Undefined undefined ? undefined.error()
                        : new TemplateError("bad operand type for unary " + u.op() + ": '" + Py.typeName(v) + "'");
            }
            if (u.op().equals("+")) {
                return v;
            }
            return v instanceof Double d ? (Object) (-d) : (Object) (-(v instanceof Boolean bool ? (bool ? 1L : 0L) : (Long) v));
        }
        if (e instanceof Binary b) {
            return binary(b, scope);
        }
        if (e instanceof Conditional c) {
            if (Py.truthy(eval(c.test(), scope))) {
                return eval(c.then(), scope);
            }
            return c.otherwise() == null ? new Undefined("the inline if expression evaluated to false and no else section was defined")
                    : eval(c.otherwise(), scope);
        }
        if (e instanceof Filter f) {
            return Builtins.filter(f.name(), eval(f.value(), scope), values(f.args(), scope), values(f.kwargs(), scope));
        }
        if (e instanceof Test t) {
            boolean result = Builtins.test(t.name(), eval(t.value(), scope), values(t.args(), scope));
            return t.negated() != result;
        }
        if (e instanceof Call c) {
            Object callee = eval(c.callee(), scope);
            if (callee instanceof Undefined u) {
                throw u.error();
            }
            if (!(callee instanceof PyCallable fn)) {
                throw new TemplateError("'" + Py.typeName(callee) + "' object is not callable");
            }
            return fn.call(values(c.args(), scope), values(c.kwargs(), scope));
        }
        throw new IllegalStateException("unknown expression " + e);
    }

    private Object optional(Expr e, Scope scope) {
        return e == null ? null : eval(e, scope);
    }

    private List<Object> values(List<Expr> exprs, Scope scope) {
        List<Object> out = new ArrayList<>();
        for (Expr e : exprs) {
            out.add(eval(e, scope));
        }
        return out;
    }

    private Map<String, Object> values(Map<String, Expr> exprs, Scope scope) {
        Map<String, Object> out = new LinkedHashMap<>();
        exprs.forEach((k, v) -> out.put(k, eval(v, scope)));
        return out;
    }

    private Object binary(Binary b, Scope scope) {
        switch (b.op()) {
            case "and" -> {
                Object left = eval(b.left(), scope);
                return Py.truthy(left) ? eval(b.right(), scope) : left;
            }
            case "or" -> {
                Object left = eval(b.left(), scope);
                return Py.truthy(left) ? left : eval(b.right(), scope);
            }
            default -> {
            }
        }
        Object left = eval(b.left(), scope);
        Object right = eval(b.right(), scope);
        return switch (b.op()) {
            case "==" -> Py.eq(left, right);
            case "!=" -> !Py.eq(left, right);
            case "<" -> Py.compare(left, right, "<") < 0;
            case ">" -> Py.compare(left, right, ">") > 0;
            case "<=" -> Py.compare(left, right, "<=") <= 0;
            case ">=" -> Py.compare(left, right, ">=") >= 0;
            case "in" -> Py.contains(right, left);
            case "not in" -> !Py.contains(right, left);
            case "~" -> Py.str(left) + Py.str(right);
            default -> Py.arithmetic(b.op(), left, right);
        };
    }
}
