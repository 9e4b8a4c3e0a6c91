package dev.toolcoach.chat.jinja;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** jinja2's built-in filters, tests and globals that chat templates use, plus Transformers' {@code tojson}. */
final class Builtins {
    /** jinja2's sandbox refuses ranges longer than this. */
    private static final long MAX_RANGE = 100_000;

    private Builtins() {
    }

    static Map<String, Object> globals() {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("range", (PyCallable) (args, kwargs) -> range(args));
        g.put("namespace", (PyCallable) (args, kwargs) -> {
            Namespace ns = new Namespace();
            for (Object a : args) {
                if (!(a instanceof Map<?, ?> m)) {
                    throw new TemplateError("namespace() takes a dict or keyword arguments");
                }
                m.forEach((k, v) -> ns.attributes.put(Py.str(k), v));
            }
            ns.attributes.putAll(kwargs);
            return ns;
        });
        g.put("dict", (PyCallable) (args, kwargs) -> new LinkedHashMap<Object, Object>(kwargs));
        return g;
    }

    private static List<Object> range(List<Object> args) {
        long start = 0;
        long stop;
        long step = 1;
        for (Object a : args) {
            if (!(a instanceof Long)) {
                throw new TemplateError("range() takes integers, not " + Py.typeName(a));
            }
        }
        switch (args.size()) {
            case 1 -> stop = (Long) args.get(0);
            case 2, 3 -> {
                start = (Long) args.get(0);
                stop = (Long) args.get(1);
                if (args.size() == 3) {
                    step = (Long) args.get(2);
                }
            }
            default -> throw new TemplateError("range expected 1 to 3 arguments, got " + args.size());
        }
        if (step == 0) {
            throw new TemplateError("range() arg 3 must not be zero");
        }
        List<Object> out = new ArrayList<>();
        for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
            if (out.size() >= MAX_RANGE) {
                throw new TemplateError("Range too big. The sandbox blocks ranges larger than MAX_RANGE (" + MAX_RANGE + ").");
            }
            out.add(i);
        }
        return out;
    }

    private static Object arg(List<Object> args, Map<String, Object> kwargs, int position, String name, Object fallback) {
        if (args.size() > position) {
            return args.get(position);
        }
        return kwargs.getOrDefault(name, fallback);
    }

    static Object filter(String name, Object v, List<Object> args, Map<String, Object> kwargs) {
        switch (name) {
            case "tojson" -> { // Transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False)
                if (v instanceof Undefined u) {
                    throw u.error();
                }
                boolean ensureAscii = Py.truthy(arg(args, kwargs, 0, "ensure_ascii", false));
                Object indent = arg(args, kwargs, 1, "indent", null);
                Object separators = arg(args, kwargs, 2, "separators", null);
                boolean sortKeys = Py.truthy(arg(args, kwargs, 3, "sort_keys", false));
                if (indent != null && !(indent instanceof Long)) {
                    throw new TemplateError("tojson: indent must be an integer, not " + Py.typeName(indent));
                }
                String itemSep = null;
                String keySep = null;
                if (separators != null) {
                    if (!(separators instanceof List<?> seps) || seps.size() != 2) {
                        throw new TemplateError("tojson: separators must be an (item_separator, key_separator) pair");
                    }
                    itemSep = Py.str(seps.get(0));
                    keySep = Py.str(seps.get(1));
                }
                return new PythonJson.Options(indent == null ? -1 : (int) (long) (Long) indent, itemSep, keySep, sortKeys, ensureAscii).dumps(v);
            }
            case "length", "count" -> {
                return Py.length(v);
            }
            case "string" -> {
                return Py.str(v);
            }
            case "trim" -> {
                Object chars = arg(args, kwargs, 0, "chars", null);
                return Methods.strip(Py.str(v), chars == null ? null : Py.str(chars), true, true);
            }
            case "upper" -> {
                return Py.str(v).toUpperCase(java.util.Locale.ROOT);
            }
            case "lower" -> {
                return Py.str(v).toLowerCase(java.util.Locale.ROOT);
            }
            case "title" -> {
                return Methods.title(Py.str(v));
            }
            case "capitalize" -> {
                String s = Py.str(v);
                return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + s.substring(1).toLowerCase(java.util.Locale.ROOT);
            }
            case "replace" -> {
                String s = Py.str(v);
                Object count = arg(args, kwargs, 2, "count", null);
                return ((PyCallable) Methods.attribute(s, "replace")).call(
                        count == null ? List.of(Py.str(args.get(0)), Py.str(args.get(1))) : List.of(Py.str(args.get(0)), Py.str(args.get(1)), count), Map.of());
            }
            case "default", "d" -> {
                Object fallback = arg(args, kwargs, 0, "default_value", "");
                boolean asBoolean = Py.truthy(arg(args, kwargs, 1, "boolean", false));
                return v instanceof Undefined || (asBoolean && !Py.truthy(v)) ? fallback : v;
            }
            case "first" -> {
                List<Object> items = Py.iterate(v);
                return items.isEmpty() ? new Undefined("No first item, sequence was empty.") : items.get(0);
            }
            case "last" -> {
                List<Object> items = Py.iterate(v);
                return items.isEmpty() ? new Undefined("No last item, sequence was empty.") : items.get(items.size() - 1);
            }
            case "list" -> {
                return Py.iterate(v);
            }
            case "reverse" -> {
                if (v instanceof String s) {
                    return new StringBuilder(s).reverse().toString();
                }
                List<Object> items = Py.iterate(v);
                java.util.Collections.reverse(items);
                return items;
            }
            case "join" -> {
                String sep = Py.str(arg(args, kwargs, 0, "d", ""));
                Object attribute = arg(args, kwargs, 1, "attribute", null);
                StringBuilder sb = new StringBuilder();
                List<Object> items = Py.iterate(v);
                for (int i = 0; i < items.size(); i++) {
                    Object item = attribute == null ? items.get(i) : attribute(items.get(i), attribute);
                    sb.append(i > 0 ? sep : "").append(Py.str(item));
                }
                return sb.toString();
            }
            case "items" -> {
                if (v instanceof Undefined) {
                    return new ArrayList<>();
                }
                if (!(v instanceof Map)) {
                    throw new TemplateError("Can only get item pairs from a mapping.");
                }
                return ((PyCallable) Methods.attribute(v, "items")).call(List.of(), Map.of());
            }
            case "dictsort" -> {
                if (!(v instanceof Map<?, ?> m)) {
                    throw new TemplateError("dictsort expects a mapping");
                }
                boolean byValue = "value".equals(arg(args, kwargs, 1, "by", "key"));
                boolean reverse = Py.truthy(arg(args, kwargs, 2, "reverse", false));
                List<Object> pairs = new ArrayList<>();
                m.forEach((k, value) -> pairs.add(new Tuple(java.util.Arrays.asList(k, value))));
                Comparator<Object> order = (a, b) -> Py.compare(sortKey(((List<?>) a).get(byValue ? 1 : 0)), sortKey(((List<?>) b).get(byValue ? 1 : 0)), "<");
                pairs.sort(reverse ? order.reversed() : order);
                return pairs;
            }
            case "sort" -> {
                boolean reverse = Py.truthy(arg(args, kwargs, 0, "reverse", false));
                Object attribute = arg(args, kwargs, 2, "attribute", null);
                List<Object> items = Py.iterate(v);
                Comparator<Object> order = (a, b) -> Py.compare(sortKey(attribute == null ? a : attribute(a, attribute)),
                        sortKey(attribute == null ? b : attribute(b, attribute)), "<");
                items.sort(reverse ? order.reversed() : order);
                return items;
            }
            case "unique" -> {
                List<Object> out = new ArrayList<>();
                for (Object item : Py.iterate(v)) {
                    if (out.stream().noneMatch(x -> Py.eq(sortKey(x), sortKey(item)))) {
                        out.add(item);
                    }
                }
                return out;
            }
            case "map" -> {
                List<Object> out = new ArrayList<>();
                Object attribute = kwargs.get("attribute");
                for (Object item : Py.iterate(v)) {
                    if (attribute != null) {
                        Object value = attribute(item, attribute);
                        out.add(value instanceof Undefined && kwargs.containsKey("default") ? kwargs.get("default") : value);
                    } else {
                        if (args.isEmpty()) {
                            throw new TemplateError("map requires a filter argument");
                        }
                        out.add(filter(Py.str(args.get(0)), item, args.subList(1, args.size()), Map.of()));
                    }
                }
                return out;
            }
            case "select", "reject" -> {
                List<Object> out = new ArrayList<>();
                for (Object item : Py.iterate(v)) {
                    boolean ok = args.isEmpty() ? Py.truthy(item) : test(Py.str(args.get(0)), item, args.subList(1, args.size()));
                    if (ok == name.equals("select")) {
                        out.add(item);
                    }
                }
                return out;
            }
            case "selectattr", "rejectattr" -> {
                if (args.isEmpty()) {
                    throw new TemplateError(name + " requires an attribute name");
                }
                List<Object> out = new ArrayList<>();
                for (Object item : Py.iterate(v)) {
                    Object value = attribute(item, args.get(0));
                    boolean ok = args.size() < 2 ? Py.truthy(value) : test(Py.str(args.get(1)), value, args.subList(2, args.size()));
                    if (ok == name.equals("selectattr")) {
                        out.add(item);
                    }
                }
                return out;
            }
            case "attr" -> {
                return Py.getAttr(v, Py.str(args.get(0)));
            }
            case "indent" -> {
                Object width = arg(args, kwargs, 0, "width", 4L);
                String pad = width instanceof String s ? s : " ".repeat((int) (long) (Long) width);
                boolean first = Py.truthy(arg(args, kwargs, 1, "first", false));
                boolean blank = Py.truthy(arg(args, kwargs, 2, "blank", false));
                String s = Py.str(v);
                String[] lines = s.split("\n", -1);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < lines.length; i++) {
                    if (i > 0) {
                        sb.append('\n');
                    }
                    boolean indentThis = (i > 0 || first) && (blank || !lines[i].isBlank());
                    sb.append(indentThis ? pad : "").append(lines[i]);
                }
                return sb.toString();
            }
            case "int" -> {
                Object fallback = arg(args, kwargs, 0, "default", 0L);
                if (v instanceof Boolean b) {
                    return b ? 1L : 0L;
                }
                if (v instanceof Long) {
                    return v;
                }
                if (v instanceof Double d) {
                    return (long) (double) d;
                }
                try {
                    return Long.parseLong(Py.str(v).strip());
                } catch (NumberFormatException e) {
                    try {
                        return (long) Double.parseDouble(Py.str(v).strip());
                    } catch (NumberFormatException e2) {
                        return fallback;
                    }
                }
            }
            case "float" -> {
                Object fallback = arg(args, kwargs, 0, "default", 0.0);
                if (Py.isNumber(v)) {
                    return Py.asDouble(v);
                }
                try {
                    return Double.parseDouble(Py.str(v).strip());
                } catch (NumberFormatException e) {
                    return fallback;
                }
            }
            case "abs" -> {
                return v instanceof Long l ? (Object) Math.abs(l) : Math.abs(Py.asDouble(v));
            }
            case "round" -> {
                long precision = (Long) arg(args, kwargs, 0, "precision", 0L);
                String method = Py.str(arg(args, kwargs, 1, "method", "common"));
                java.math.RoundingMode mode = switch (method) {
                    case "ceil" -> java.math.RoundingMode.CEILING;
                    case "floor" -> java.math.RoundingMode.FLOOR;
                    default -> java.math.RoundingMode.HALF_EVEN; // Python's round() on the exact binary value
                };
                return new java.math.BigDecimal(Py.asDouble(v)).setScale((int) precision, mode).doubleValue();
            }
            case "sum" -> {
                Object attribute = arg(args, kwargs, 0, "attribute", null);
                Object total = arg(args, kwargs, 1, "start", 0L);
                for (Object item : Py.iterate(v)) {
                    total = Py.arithmetic("+", total, attribute == null ? item : attribute(item, attribute));
                }
                return total;
            }
            case "min", "max" -> {
                List<Object> items = Py.iterate(v);
                if (items.isEmpty()) {
                    return new Undefined("No aggregated item, sequence was empty.");
                }
                Object attribute = kwargs.get("attribute");
                Object best = items.get(0);
                for (Object item : items) {
                    int c = Py.compare(sortKey(attribute == null ? item : attribute(item, attribute)),
                            sortKey(attribute == null ? best : attribute(best, attribute)), "<");
                    if (name.equals("min") ? c < 0 : c > 0) {
                        best = item;
                    }
                }
                return best;
            }
            case "wordcount" -> {
                String s = Py.str(v).strip();
                return s.isEmpty() ? 0L : (long) s.split("\\s+").length;
            }
            case "safe" -> {
                return v;
            }
            case "e", "escape" -> {
                return Py.str(v).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                        .replace("\"", "&#34;").replace("'", "&#39;");
            }
            default -> throw new TemplateError("No filter named '" + name + "'.");
        }
    }

    /** Sorting and uniqueness ignore case for strings by default, as jinja2's filters do. */
    private static Object sortKey(Object v) {
        return v instanceof String s ? s.toLowerCase(java.util.Locale.ROOT) : v;
    }

    /** A dotted attribute path ({@code "function.name"}) or an index, as jinja2's attribute getters take them. */
    private static Object attribute(Object item, Object path) {
        if (path instanceof Long) {
            return Py.getItem(item, path);
        }
        Object value = item;
        for (String part : Py.str(path).split("\\.")) {
            value = part.chars().allMatch(Character::isDigit) ? Py.getItem(value, Long.parseLong(part)) : Py.getItem(value, part);
        }
        return value;
    }

    static boolean test(String name, Object v, List<Object> args) {
        return switch (name) {
            case "defined" -> !(v instanceof Undefined);
            case "undefined" -> v instanceof Undefined;
            case "none" -> v == null;
            case "boolean" -> v instanceof Boolean;
            case "true" -> Boolean.TRUE.equals(v);
            case "false" -> Boolean.FALSE.equals(v);
            case "integer" -> v instanceof Long;
            case "float" -> v instanceof Double;
            case "number" -> Py.isNumber(v);
            case "string" -> v instanceof String;
            case "mapping" -> v instanceof Map;
            case "iterable" -> v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
            case "sequence" -> v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
            case "callable" -> v instanceof PyCallable;
            case "odd" -> (Long) v % 2 != 0;
            case "even" -> (Long) v % 2 == 0;
            case "divisibleby" -> (Long) v % (Long) args.get(0) == 0;
            case "lower" -> v instanceof String s && s.equals(s.toLowerCase(java.util.Locale.ROOT));
            case "upper" -> v instanceof String s && s.equals(s.toUpperCase(java.util.Locale.ROOT));
            case "eq", "equalto", "==" -> Py.eq(v, args.get(0));
            case "ne", "!=" -> !Py.eq(v, args.get(0));
            case "lt", "lessthan", "<" -> Py.compare(v, args.get(0), "<") < 0;
            case "le", "<=" -> Py.compare(v, args.get(0), "<=") <= 0;
            case "gt", "greaterthan", ">" -> Py.compare(v, args.get(0), ">") > 0;
            case "ge", ">=" -> Py.compare(v, args.get(0), ">=") >= 0;
            case "in" -> Py.contains(args.get(0), v);
            case "sameas" -> v == args.get(0) || (v instanceof Boolean && v.equals(args.get(0)));
            case "escaped" -> false;
            default -> throw new TemplateError("No test named '" + name + "'.");
        };
    }
}
