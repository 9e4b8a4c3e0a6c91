package dev.toolcoach.tasks.calling;

import java.util.Objects;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Value normalisation and equality as BFCL's Python checker does them. */
final class BfclValues {

    /** BFCL's standardize_string: drop spaces and {@code ,./-_*^}, lower-case, single quotes to double. */
    private static final Pattern IGNORED = Pattern.compile("[ ,./\\-_*^]");

    private BfclValues() {
    }

    static String standardize(String s) {
        return IGNORED.matcher(s).replaceAll("").toLowerCase(Locale.ROOT).replace('\'', '"');
    }

    /** A string standardised, anything else unchanged. */
    static Object standardizeIfString(Object v) {
        return v instanceof String s ? standardize(s) : v;
    }

    /** The list with its string elements standardised (one level, as BFCL's list_checker does). */
    static List<Object> standardizeElements(List<?> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (Object v : values) out.add(standardizeIfString(v));
        return out;
    }

    /**
     * Python's {@code ==} on JSON values: numbers by value (5 == 5.0, and a bool is the number 1 or 0 to Python:
     * True == 1), lists and dicts element-wise.
     */
    static boolean pyEquals(Object a, Object b) {
        JsonKind ka = JsonKind.of(a);
        JsonKind kb = JsonKind.of(b);
        if (ka == JsonKind.BOOLEAN && kb == JsonKind.BOOLEAN) return a.equals(b);
        if (isNumber(ka) && isNumber(kb)) {
            // inf and nan (a converter reads them from "Infinity" or "nan") compare as Python floats do
            if (!finite(a) || !finite(b)) return asDouble(a) == asDouble(b);
            return decimal(a).compareTo(decimal(b)) == 0;
        }
        if (ka != kb) return false;
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) return false;
            for (int i = 0; i < la.size(); i++) if (!pyEquals(la.get(i), lb.get(i))) return false;
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (!ma.keySet().equals(mb.keySet())) return false;
            for (Map.Entry<?, ?> e : ma.entrySet()) if (!pyEquals(e.getValue(), mb.get(e.getKey()))) return false;
            return true;
        }
        return Objects.equals(a, b);
    }

    /** Python's {@code value in candidates}. */
    static boolean pyIn(Object value, List<?> candidates) {
        for (Object c : candidates) if (pyEquals(value, c)) return true;
        return false;
    }

    private static boolean isNumber(JsonKind kind) {
        return kind == JsonKind.INTEGER || kind == JsonKind.FLOAT || kind == JsonKind.BOOLEAN;
    }

    private static boolean finite(Object n) {
        return !(n instanceof Double d) || Double.isFinite(d);
    }

    private static double asDouble(Object n) {
        return n instanceof Boolean b ? (b ? 1 : 0) : ((Number) n).doubleValue();
    }

    private static BigDecimal decimal(Object n) {
        if (n instanceof Boolean b) return b ? BigDecimal.ONE : BigDecimal.ZERO;
        return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
    }
}
