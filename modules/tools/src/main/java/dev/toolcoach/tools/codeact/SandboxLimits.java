package dev.toolcoach.tools.codeact;

import java.time.Duration;

/**
 * What one program may use inside the {@link PythonSandbox}.
 *
 * @param cpuSeconds   CPU time (RLIMIT_CPU: the kernel stops the program when it is spent)
 * @param wallTime     wall-clock time, waiting for tools included (the sandbox kills the program after it)
 * @param memoryBytes  address space (RLIMIT_AS: an allocation beyond it fails, as a MemoryError in Python)
 * @param maxProcesses processes the program may start besides itself (RLIMIT_NPROC of its own user)
 * @param maxFileBytes largest file it may write, its printed output included (RLIMIT_FSIZE)
 * @param scratchBytes everything it may write, in all: the size of its one writable place (its working directory, with
 *                     {@code /tmp} inside it), a tmpfs, so it is memory of this machine, never its disk
 * @param maxToolCalls tool calls one program may make
 * @param maxRunning   programs running at once (each gets a user of its own, so limits per user stay per program)
 */
public record SandboxLimits(int cpuSeconds, Duration wallTime, long memoryBytes, int maxProcesses, long maxFileBytes,
                            long scratchBytes, int maxToolCalls, int maxRunning) {

    public SandboxLimits {
        if (cpuSeconds < 1) throw new IllegalArgumentException("cpuSeconds must be at least 1, not " + cpuSeconds);
        if (wallTime.isNegative() || wallTime.isZero()) throw new IllegalArgumentException("wallTime must be positive");
        if (memoryBytes < (64L << 20)) throw new IllegalArgumentException("memoryBytes must be at least 64 MiB for Python to start");
        if (maxProcesses < 0) throw new IllegalArgumentException("maxProcesses must not be negative");
        if (maxFileBytes < 1024) throw new IllegalArgumentException("maxFileBytes must be at least 1024");
        if (scratchBytes < maxFileBytes) throw new IllegalArgumentException("scratchBytes must be at least maxFileBytes");
        if (maxToolCalls < 0) throw new IllegalArgumentException("maxToolCalls must not be negative");
        if (maxRunning < 1) throw new IllegalArgumentException("maxRunning must be at least 1");
    }

    /** 10 s CPU, 20 s wall, 512 MiB, 8 child processes, 1 MiB files and 16 MiB in all, 32 tool calls, 16 programs at once. */
    public static SandboxLimits defaults() {
        return new SandboxLimits(10, Duration.ofSeconds(20), 512L << 20, 8, 1L << 20, 16L << 20, 32, 16);
    }
}
