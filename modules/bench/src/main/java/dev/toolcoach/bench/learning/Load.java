package dev.toolcoach.bench.learning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load averages (1, 5, 15 min), as {@code uptime} shows them, to print beside timings, and
 * this process's resident memory (native tensors included, which the JVM heap does not show).
 */
public final class Load {

    private Load() {
    }

    public static String now() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            String rss = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                    .map(l -> l.substring(6).trim()).findFirst().orElse("?");
            return f[0] + " " + f[1] + " " + f[2] + " (rss " + rss + ")";
        } catch (IOException e) {
            return "unknown";
        }
    }
}
