package dev.toolcoach.learn.checkpoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A directory of checkpoints named by step. Writes go to a temporary file that is synced and then
 * atomically renamed, so a crash leaves either the old set or the new file, never half a file under
 * a checkpoint name; the directory is synced after the rename, so the new name survives a crash too. Loading takes the newest file that verifies and reports the ones it refused.
 */
public final class CheckpointStore {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
    private static final Pattern NAME = Pattern.compile("checkpoint-(\\d{12})\\.tcc");

    private final Path directory;
    private final int keep;

    /** @param keep how many newest checkpoints to retain (older ones are deleted after a successful write) */
    public CheckpointStore(Path directory, int keep) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be >= 1, got " + keep);
        }
        this.directory = directory;
        this.keep = keep;
    }

    /** The newest checkpoint that verifies, and the newer files that were refused on the way. */
    public record Restored(Optional<Checkpoint> checkpoint, Optional<Path> file, List<String> refused) {
    }

    public Path save(Checkpoint checkpoint) {
        Path target = directory.resolve(String.format("checkpoint-%012d.tcc", checkpoint.step()));
        Path temp = directory.resolve(target.getFileName() + ".tmp");
        try {
            Files.createDirectories(directory);
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(CheckpointCodec.encode(checkpoint));
                while (buf.hasRemaining()) ch.write(buf);
                ch.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory();
            prune();
            return target;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp); // a partial file on a full disk would hold the room a later save needs
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw new UncheckedIOException("cannot write checkpoint step " + checkpoint.step() + " to " + directory, e);
        }
    }

    public Restored loadLatest() {
        List<String> refused = new ArrayList<>();
        for (Path file : newestFirst()) {
            try {
                Checkpoint c = CheckpointCodec.decode(file, Files.readAllBytes(file));
                return new Restored(Optional.of(c), Optional.of(file), refused);
            } catch (CorruptCheckpointException e) {
                LOG.warn("{}; falling back to an older checkpoint", e.getMessage());
                refused.add(e.getMessage());
            } catch (IOException e) {
                String msg = "checkpoint " + file + " refused: cannot read (" + e.getMessage() + ")";
                LOG.warn(msg);
                refused.add(msg);
            }
        }
        return new Restored(Optional.empty(), Optional.empty(), refused);
    }

    /**
     * Every checkpoint file, newest first, with what it holds or why it does not verify (for audits: a
     * resume reads only the newest good one).
     *
     * @param refusal why the file does not decode, or null when it does
     */
    public record Verified(Path file, long step, int version, String refusal) {
    }

    public List<Verified> verifyAll() {
        List<Verified> results = new ArrayList<>();
        for (Path file : newestFirst()) {
            try {
                Checkpoint c = CheckpointCodec.decode(file, Files.readAllBytes(file));
                results.add(new Verified(file, c.step(), c.version(), null));
            } catch (CorruptCheckpointException e) {
                results.add(new Verified(file, stepOf(file), -1, e.getMessage()));
            } catch (IOException e) {
                results.add(new Verified(file, stepOf(file), -1, "cannot read (" + e.getMessage() + ")"));
            }
        }
        return results;
    }

    /** Checkpoint files by step, newest first (temporary files are ignored). */
    public List<Path> newestFirst() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> NAME.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingLong(CheckpointStore::stepOf).reversed()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints in " + directory, e);
        }
    }

    /** The rename lives in the directory's entry, which a crash can lose unless the directory itself is synced. */
    private void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private void prune() throws IOException {
        List<Path> files = newestFirst();
        for (int i = keep; i < files.size(); i++) {
            Files.deleteIfExists(files.get(i));
        }
    }

    private static long stepOf(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }
}
