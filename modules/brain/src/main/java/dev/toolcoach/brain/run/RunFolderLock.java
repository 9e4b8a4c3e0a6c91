package dev.toolcoach.brain.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One job per run folder: an exclusive lock on the folder's {@value #FILE}, held while the job runs, so a second
 * job on the same folder (in this process or another) is refused instead of interleaving records and checkpoints.
 * The operating system drops the lock when the process dies, so a crashed job never leaves the folder locked.
 */
public final class RunFolderLock implements AutoCloseable {

    /** The lock file in the run folder. */
    public static final String FILE = ".lock";

    /** The folder is in use by another job; the message is the one line the user sees. */
    public static final class InUse extends IllegalStateException {
        InUse(String message) {
            super(message);
        }
    }

    private final FileChannel channel;
    private final FileLock lock;

    private RunFolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code runDir} (created if missing).
     *
     * @throws InUse when another job holds it
     */
    public static RunFolderLock acquire(Path runDir) {
        Path file = runDir.resolve(FILE);
        FileChannel channel;
        try {
            Files.createDirectories(runDir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the lock file " + file + ": " + e.getMessage(), e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this very process
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + file + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new InUse("run folder " + runDir + " is in use by another job (" + file + " is locked)");
        }
        return new RunFolderLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it all the same
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing held any more
        }
    }
}
