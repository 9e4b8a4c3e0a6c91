package dev.toolcoach.chat.jinja;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Python's value semantics over the interpreter's values: None is null, int is Long, float is Double, str is
 * String, list and tuple are List, dict is Map (order kept), plus {@link Undefined}, {@link Namespace},
 * {@link LoopInfo} and {@link PyCallable}. Nothing else can reach a template, which is the sandbox: no Java
 * object, method or field is ever looked up by name.
 */
final class Py {
    private Py() {
    }

    /** Deep copy of a caller's value into the interpreter's types; anything else is refused. */
    static Object from(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof PyCallable) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float f) {
            return Double.parseDouble(f.toString());
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b.doubleValue();
        }
        if (v instanceof BigDecimal d) {
            return d.doubleValue();
        }
        if (v instanceof Character c) {
            return c.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, value) -> out.put(from(k), from(value)));
            return out;
        }
        if (v instanceof Iterable<?> it) {
            List<Object> out = new ArrayList<>();
            it.forEach(x -> out.add(from(x)));
            return out;
        }
        throw new IllegalArgumentException("a " + v.getClass().getSimpleName() + " cannot be passed to a template");
    }

    static boolean truthy(Object v) {
        if (v == null || v instanceof Undefined) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Long l) {
            return l != 0;
        }
        if (v instanceof Double d) {
            return d != 0;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof List<?> l) {
            return !l.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        return true;
    }

    static String typeName(Object v) {
        if (v == null) {
            return "NoneType";
        }
        if (v instanceof Undefined) {
            return "Undefined";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof Double) {
            return "float";
        }
        if (v instanceof String) {
            return "str";
        }
        if (v instanceof Tuple) {
            return "tuple";
        }
        if (v instanceof List) {
            return "list";
        }
        if (v instanceof Map) {
            return "dict";
        }
        if (v instanceof Namespace) {
            return "Namespace";
        }
        if (v instanceof LoopInfo) {
            return "LoopContext";
        }
        return "function";
    }

    /** {@code str(v)}, as {@code {{ v }}} prints it (Undefined prints as nothing). */
    static String str(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Undefined) {
            return "";
        }
        return repr(v);
    }

    static String repr(Object v) {
        if (v == null) {
            return "None";
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (v instanceof Double d) {
            return PythonJson.floatRepr(d, false);
        }
        if (v instanceof Long l) {
            return l.toString();
        }
        if (v instanceof String s) {
            return reprString(s);
        }
        if (v instanceof Undefined) {
            return "";
        }
        if (v instanceof List<?> list) {
            boolean tuple = v instanceof Tuple;
            StringBuilder sb = new StringBuilder(tuple ? "(" : "[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(repr(list.get(i)));
            }
            return sb.append(tuple && list.size() == 1 ? "," : "").append(tuple ? ')' : ']').toString();
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ", ").append(repr(e.getKey())).append(": ").append(repr(e.getValue()));
                first = false;
            }
            return sb.append('}').toString();
        }
        if (v instanceof Namespace ns) {
            return "<Namespace " + repr(ns.attributes) + ">";
        }
        return "<" + typeName(v) + ">";
    }

    private static String reprString(String s) {
        char quote = s.contains("'") && !s.contains("\"") ? '"' : '\'';
        StringBuilder sb = new StringBuilder().append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == quote || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append(quote).toString();
    }

    // ---- numbers ----

    static boolean isNumber(Object v) {
        return v instanceof Long || v instanceof Double || v instanceof Boolean;
    }

    private static boolean isIntLike(Object v) {
        return v instanceof Long || v instanceof Boolean;
    }

    private static long asLong(Object v) {
        return v instanceof Boolean b ? (b ? 1 : 0) : (Long) v;
    }

    static double asDouble(Object v) {
        return v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).doubleValue();
    }

    static boolean eq(Object a, Object b) {
        if (a instanceof Undefined || b instanceof Undefined) {
            return a instanceof Undefined && b instanceof Undefined;
        }
        if (isNumber(a) && isNumber(b)) {
            return isIntLike(a) && isIntLike(b) ? asLong(a) == asLong(b) : asDouble(a) == asDouble(b);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size() || (a instanceof Tuple) != (b instanceof Tuple)) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!eq(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!containsKey(y, e.getKey()) || !eq(e.getValue(), getKey(y, e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    static int compare(Object a, Object b, String op) {
        if (isNumber(a) && isNumber(b)) {
            return isIntLike(a) && isIntLike(b) ? Long.compare(asLong(a), asLong(b)) : Double.compare(asDouble(a), asDouble(b));
        }
        if (a instanceof String x && b instanceof String y) {
            return Integer.signum(x.compareTo(y));
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                if (!eq(x.get(i), y.get(i))) {
                    return compare(x.get(i), y.get(i), op);
                }
            }
            return Integer.compare(x.size(), y.size());
        }
        throw undefinedOr(a, b, "'" + op + "' not supported between instances of '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static TemplateError undefinedOr(Object a, Object b, String message) {
        if (a instanceof Undefined u) {
            return u.error();
        }
        if (b instanceof Undefined u) {
            return u.error();
        }
        return new TemplateError(message);
    }

    static Object arithmetic(String op, Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            boolean ints = isIntLike(a) && isIntLike(b);
            switch (op) {
                case "+" -> {
                    return ints ? (Object) (asLong(a) + asLong(b)) : asDouble(a) + asDouble(b);
                }
                case "-" -> {
                    return ints ? (Object) (asLong(a) - asLong(b)) : asDouble(a) - asDouble(b);
                }
                case "*" -> {
                    return ints ? (Object) (asLong(a) * asLong(b)) : asDouble(a) * asDouble(b);
                }
                case "/" -> {
                    if (asDouble(b) == 0) {
                        throw new TemplateError("division by zero");
                    }
                    return asDouble(a) / asDouble(b);
                }
                case "//" -> {
                    if (asDouble(b) == 0) {
                        throw new TemplateError("integer division or modulo by zero");
                    }
                    return ints ? (Object) Math.floorDiv(asLong(a), asLong(b)) : Math.floor(asDouble(a) / asDouble(b));
                }
                case "%" -> {
                    if (asDouble(b) == 0) {
                        throw new TemplateError("integer division or modulo by zero");
                    }
                    if (ints) {
                        return Math.floorMod(asLong(a), asLong(b));
                    }
                    double r = asDouble(a) % asDouble(b);
                    return r != 0 && (r < 0) != (asDouble(b) < 0) ? r + asDouble(b) : r;
                }
                case "**" -> {
                    if (ints && asLong(b) >= 0) {
                        return BigInteger.valueOf(asLong(a)).pow((int) asLong(b)).longValue();
                    }
                    return Math.pow(asDouble(a), asDouble(b));
                }
                default -> throw new IllegalStateException(op);
            }
        }
        if (op.equals("+") && a instanceof String x && b instanceof String y) {
            return x + y;
        }
        if (op.equals("+") && a instanceof List<?> x && b instanceof List<?> y) {
            List<Object> out = new ArrayList<>(x);
            out.addAll(y);
            return out;
        }
        if (op.equals("*") && (a instanceof String || a instanceof List) && b instanceof Long n) {
            return repeat(a, n);
        }
        if (op.equals("*") && a instanceof Long n && (b instanceof String || b instanceof List)) {
            return repeat(b, n);
        }
        throw undefinedOr(a, b, "unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static Object repeat(Object seq, long n) {
        if (seq instanceof String s) {
            return s.repeat((int) Math.max(0, n));
        }
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.addAll((List<?>) seq);
        }
        return out;
    }

    static boolean contains(Object container, Object item) {
        if (container instanceof String s) {
            if (!(item instanceof String sub)) {
                throw new TemplateError("'in <string>' requires string as left operand, not " + typeName(item));
            }
            return s.contains(sub);
        }
        if (container instanceof List<?> list) {
            return list.stream().anyMatch(x -> eq(x, item));
        }
        if (container instanceof Map<?, ?> m) {
            return containsKey(m, item);
        }
        if (container instanceof Undefined) {
            return false;
        }
        throw new TemplateError("argument of type '" + typeName(container) + "' is not iterable");
    }

    /** Map lookups with Python's key equality (1 and 1.0 are the same key). */
    static boolean containsKey(Map<?, ?> m, Object key) {
        return m.containsKey(key) || m.keySet().stream().anyMatch(k -> eq(k, key));
    }

    static Object getKey(Map<?, ?> m, Object key) {
        if (m.containsKey(key)) {
            return m.get(key);
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (eq(e.getKey(), key)) {
                return e.getValue();
            }
        }
        return null;
    }

    static List<Object> iterate(Object v) {
        if (v instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        if (v instanceof Map<?, ?> m) {
            return new ArrayList<>(m.keySet());
        }
        if (v instanceof String s) {
            List<Object> chars = new ArrayList<>();
            s.codePoints().forEach(c -> chars.add(new String(Character.toChars(c))));
            return chars;
        }
        if (v instanceof Undefined) {
            return new ArrayList<>();
        }
        throw new TemplateError("'" + typeName(v) + "' object is not iterable");
    }

    static long length(Object v) {
        if (v instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (v instanceof List<?> l) {
            return l.size();
        }
        if (v instanceof Map<?, ?> m) {
            return m.size();
        }
        if (v instanceof Undefined) {
            return 0;
        }
        if (v instanceof Namespace ns) {
            return ns.attributes.size();
        }
        throw new TemplateError("object of type '" + typeName(v) + "' has no len()");
    }

    /** {@code obj[key]} falling back to the attribute, as jinja2's environment.getitem does. */
    static Object getItem(Object target, Object key) {
        if (target instanceof Undefined u) {
            throw u.error();
        }
        if (target instanceof Map<?, ?> m) {
            if (containsKey(m, key)) {
                return getKey(m, key);
            }
        } else if (target instanceof List<?> list && isIntLike(key)) {
            long i = asLong(key);
            long n = list.size();
            if (i < 0) {
                i += n;
            }
            if (i >= 0 && i < n) {
                return list.get((int) i);
            }
            return new Undefined(Methods.missing(target, Py.repr(key)));
        } else if (target instanceof String s && isIntLike(key)) {
            List<Object> chars = iterate(s);
            long i = asLong(key);
            if (i < 0) {
                i += chars.size();
            }
            if (i >= 0 && i < chars.size()) {
                return chars.get((int) i);
            }
            return new Undefined(Methods.missing(target, Py.repr(key)));
        }
        if (key instanceof String name) {
            return Methods.attribute(target, name);
        }
        return new Undefined(Methods.missing(target, Py.repr(key)));
    }

    /** {@code obj.name}: a method or attribute first, then the item, as jinja2's environment.getattr does. */
    static Object getAttr(Object target, String name) {
        if (target instanceof Undefined u) {
            throw u.error();
        }
        Object attribute = Methods.attribute(target, name);
        if (!(attribute instanceof Undefined)) {
            return attribute;
        }
        if (target instanceof Map<?, ?> m && containsKey(m, name)) {
            return getKey(m, name);
        }
        return attribute;
    }

    static Object slice(Object target, Object startV, Object stopV, Object stepV) {
        if (target instanceof Undefined u) {
            throw u.error();
        }
        List<Object> items;
        if (target instanceof String s) {
            items = iterate(s);
        } else if (target instanceof List<?> l) {
            items = new ArrayList<>(l);
        } else {
            throw new TemplateError("'" + typeName(target) + "' object is not subscriptable");
        }
        int n = items.size();
        long step = stepV == null ? 1 : asLong(index(stepV));
        if (step == 0) {
            throw new TemplateError("slice step cannot be zero");
        }
        long start;
        long stop;
        if (step > 0) {
            start = startV == null ? 0 : clamp(asLong(index(startV)), n, 0, n);
            stop = stopV == null ? n : clamp(asLong(index(stopV)), n, 0, n);
        } else {
            start = startV == null ? n - 1 : clamp(asLong(index(startV)), n, -1, n - 1);
            stop = stopV == null ? -1 : clamp(asLong(index(stopV)), n, -1, n - 1);
        }
        List<Object> out = new ArrayList<>();
        for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
            out.add(items.get((int) i));
        }
        if (target instanceof String) {
            StringBuilder sb = new StringBuilder();
            out.forEach(c -> sb.append((String) c));
            return sb.toString();
        }
        return out;
    }

    private static Object index(Object v) {
        if (!isIntLike(v)) {
            throw new TemplateError("slice indices must be integers or None, not " + typeName(v));
        }
        return v;
    }

    private static long clamp(long i, int n, long lo, long hi) {
        if (i < 0) {
            i += n;
        }
        return Math.max(lo, Math.min(hi, i));
    }
}
