package dev.toolcoach.cluster.tile;

import dev.toolcoach.agent.adapt.Experience;
import dev.toolcoach.agent.adapt.ToolPreferences;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * How tool preferences sit in the replicated counter map: one counter per (context, tool, outcome), entry
 * {@code context US tool US s|f} (US = U+001F). Each node increments only its own share of a counter, so a counter's
 * value is the sum of every node's experience, and α = α₀ + Σ successes, β = β₀ + Σ failures is exact after any merge.
 */
final class PreferenceCounters {
    private static final char SEP = '\u001f';

    private PreferenceCounters() {
    }

    static String entry(ToolPreferences.Key key, boolean success) {
        if (key.context().indexOf(SEP) >= 0 || key.tool().indexOf(SEP) >= 0) {
            throw new IllegalArgumentException("a context or tool name holds the separator U+001F");
        }
        return key.context() + SEP + key.tool() + SEP + (success ? 's' : 'f');
    }

    /** The experience the counters hold; an entry not made by {@link #entry} is an error naming it. */
    static Map<ToolPreferences.Key, Experience> decode(Map<String, BigInteger> counters) {
        Map<ToolPreferences.Key, Experience> out = new HashMap<>();
        counters.forEach((entry, value) -> {
            int a = entry.indexOf(SEP);
            int b = entry.lastIndexOf(SEP);
            if (a < 0 || b != entry.length() - 2 || a == b || "sf".indexOf(entry.charAt(b + 1)) < 0 || value.signum() < 0) {
                throw new IllegalStateException("tool preferences: malformed replicated counter " + entry.replace(SEP, '|'));
            }
            ToolPreferences.Key key = new ToolPreferences.Key(entry.substring(0, a), entry.substring(a + 1, b));
            long n = value.longValueExact();
            out.merge(key, entry.charAt(b + 1) == 's' ? new Experience(n, 0) : new Experience(0, n), Experience::plus);
        });
        return out;
    }
}
