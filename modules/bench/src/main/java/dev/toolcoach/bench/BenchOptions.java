package dev.toolcoach.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/** The {@code key=value} arguments of the bench mains. */
public final class BenchOptions {

    private BenchOptions() {
    }

    /** The defaults with the arguments applied; an argument that is not {@code key=value} of a known key ends the program (exit 2). */
    public static Map<String, String> parse(Map<String, String> defaults, String[] args) {
        Map<String, String> options = new HashMap<>(defaults);
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (kv.length != 2 || !options.containsKey(kv[0])) {
                System.err.println("unknown argument " + arg + "; keys: " + new TreeSet<>(options.keySet()));
                System.exit(2);
            }
            options.put(kv[0], kv[1]);
        }
        return options;
    }
}
