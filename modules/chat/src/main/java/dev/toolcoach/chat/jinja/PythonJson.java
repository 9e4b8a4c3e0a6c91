package dev.toolcoach.chat.jinja;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * JSON text exactly as Python's {@code json.dumps(x, ensure_ascii=False, indent=indent)} writes it, which is what
 * Transformers' chat-template {@code tojson} filter calls: {@code ", "} and {@code ": "} separators (just
 * {@code ","} between items when indenting), non-ASCII kept, map order kept, floats as Python's {@code repr}.
 */
final class PythonJson {
    private PythonJson() {
    }

    /**
     * json.dumps' options as Transformers' {@code tojson} passes them on.
     *
     * @param indent       spaces per level, or -1 for one line
     * @param itemSep      null for the default ({@code ", "}, or {@code ","} when indenting)
     * @param keySep       null for the default {@code ": "}
     * @param ensureAscii  escape non-ASCII (as json.dumps' default does)
     */
    record Options(int indent, String itemSep, String keySep, boolean sortKeys, boolean ensureAscii) {
        String dumps(Object value) {
            StringBuilder sb = new StringBuilder();
            write(sb, value, this, 0);
            return sb.toString();
        }

        String items() {
            return itemSep != null ? itemSep : indent < 0 ? ", " : ",";
        }

        String keys() {
            return keySep != null ? keySep : ": ";
        }
    }

    private static void write(StringBuilder sb, Object v, Options o, int level) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(sb, s, o.ensureAscii());
        } else if (v instanceof Boolean b) {
            sb.append(b ? "true" : "false");
        } else if (v instanceof Double || v instanceof Float) {
            sb.append(floatRepr(((Number) v).doubleValue(), true));
        } else if (v instanceof Number n) {
            sb.append(n instanceof BigDecimal d ? d.toPlainString() : n.toString());
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append('{');
            boolean first = true;
            List<? extends Map.Entry<?, ?>> entries = new java.util.ArrayList<>(m.entrySet());
            if (o.sortKeys()) {
                entries.sort((a, b) -> key(a.getKey()).compareTo(key(b.getKey())));
            }
            for (Map.Entry<?, ?> e : entries) {
                separator(sb, first, o, level + 1);
                first = false;
                quote(sb, key(e.getKey()), o.ensureAscii());
                sb.append(o.keys());
                write(sb, e.getValue(), o, level + 1);
            }
            close(sb, o.indent(), level).append('}');
        } else if (v instanceof List<?> list) {
            if (list.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            boolean first = true;
            for (Object item : list) {
                separator(sb, first, o, level + 1);
                first = false;
                write(sb, item, o, level + 1);
            }
            close(sb, o.indent(), level).append(']');
        } else {
            throw new TemplateError("Object of type " + Py.typeName(v) + " is not JSON serializable");
        }
    }

    private static String key(Object k) {
        // json.dumps turns bool, None and number keys into strings
        if (k instanceof String s) {
            return s;
        }
        if (k == null) {
            return "null";
        }
        if (k instanceof Boolean || k instanceof Number) {
            return k instanceof Double d ? floatRepr(d, true) : k.toString();
        }
        throw new TemplateError("keys must be str, int, float, bool or None, not " + Py.typeName(k));
    }

    private static void separator(StringBuilder sb, boolean first, Options o, int level) {
        if (!first) {
            sb.append(o.items());
        }
        if (o.indent() >= 0) {
            sb.append('\n').append(" ".repeat(o.indent() * level));
        }
    }

    private static StringBuilder close(StringBuilder sb, int indent, int level) {
        if (indent >= 0) {
            sb.append('\n').append(" ".repeat(indent * level));
        }
        return sb;
    }

    static void quote(StringBuilder sb, String s, boolean ensureAscii) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || (ensureAscii && c > 0x7f)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /**
     * Python's {@code repr(float)}: the shortest digits that read back, positional for exponents -4..15 and
     * scientific ({@code 1e-05}, {@code 1.5e+16}) outside; {@code json=true} spells non-finite values as
     * json.dumps does ({@code NaN}, {@code Infinity}), else as repr does ({@code nan}, {@code inf}).
     */
    static String floatRepr(double d, boolean json) {
        if (Double.isNaN(d)) {
            return json ? "NaN" : "nan";
        }
        if (Double.isInfinite(d)) {
            return (d > 0 ? "" : "-") + (json ? "Infinity" : "inf");
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal bd = shortest(d);
        String sign = bd.signum() < 0 ? "-" : "";
        BigInteger unscaled = bd.unscaledValue().abs();
        String digits = unscaled.toString();
        int decpt = digits.length() - bd.scale(); // value = 0.digits * 10^decpt
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                return sign + "0." + "0".repeat(-decpt) + digits;
            }
            if (decpt >= digits.length()) {
                return sign + digits + "0".repeat(decpt - digits.length()) + ".0";
            }
            return sign + digits.substring(0, decpt) + "." + digits.substring(decpt);
        }
        int exp = decpt - 1;
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }

    /** The shortest decimal that rounds to {@code d} (Java 17's Double.toString is not always the shortest). */
    private static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal candidate = exact.round(new java.math.MathContext(precision, java.math.RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == d) {
                return candidate.stripTrailingZeros();
            }
        }
        return exact.stripTrailingZeros();
    }
}
