package dev.toolcoach.model;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Gives the native memory PyTorch frees back to the operating system. PyTorch's CPU tensors come from glibc's malloc,
 * whose arenas keep what a training or decode step frees, in pieces between blocks still in use, and glibc raises its
 * mmap threshold to the size of large blocks once they are freed, so later ones come from those arenas too: the
 * process's resident size grew to about twice what it held (the main job peaked at 4.6 GB; 2.5 GB with this).
 * {@code malloc_trim(0)} returns the free pages of every arena; a daemon thread calls it every
 * {@value #PERIOD_MILLIS} ms from the first model manager on (a call took 20-100 ms there, during which other threads'
 * allocations wait). Without glibc (musl, macOS) there is nothing to call and nothing is done.
 */
public final class NativeMemory {
    private static final Logger LOG = LoggerFactory.getLogger(NativeMemory.class);
    private static final long PERIOD_MILLIS = 5_000;
    private static boolean started;

    private NativeMemory() {
    }

    private interface GlibcMalloc extends Library {
        int malloc_trim(long pad);
    }

    /** Starts the trimming thread once per JVM. */
    public static synchronized void keepTrimmed() {
        if (started) {
            return;
        }
        started = true;
        GlibcMalloc glibc;
        try {
            glibc = Native.load("c", GlibcMalloc.class);
            glibc.malloc_trim(0);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            LOG.debug("no glibc malloc_trim here ({}): native memory is left to the allocator", e.toString());
            return;
        }
        ScheduledExecutorService trimmer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "native-memory-trim");
            thread.setDaemon(true);
            return thread;
        });
        trimmer.scheduleWithFixedDelay(() -> glibc.malloc_trim(0), PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
}
