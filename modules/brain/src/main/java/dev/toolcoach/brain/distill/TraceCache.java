package dev.toolcoach.brain.distill;

import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Teacher traces on disk, one JSON Lines file per key. A file is written whole to a temporary name
 * and renamed, so a crash never leaves a half file that looks complete; a file with any unreadable
 * line is treated as absent (the traces are collected again) rather than trusted in part.
 */
public final class TraceCache {

    private final Path dir;

    public TraceCache(Path dir) {
        this.dir = dir;
    }

    /** SHA-256 over the parts, each length-prefixed so different splits never collide. */
    public static String key(String... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                byte[] bytes = p.getBytes(StandardCharsets.UTF_8);
                sha.update((bytes.length + ":").getBytes(StandardCharsets.UTF_8));
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    public Path file(String key) {
        return dir.resolve("traces-" + key + ".jsonl");
    }

    public Optional<List<Trace>> load(String key) {
        Path file = file(key);
        if (!Files.isRegularFile(file)) return Optional.empty();
        JsonLines.Read<Trace> read = TraceJson.read(file);
        return read.skipped().isEmpty() ? Optional.of(read.items()) : Optional.empty();
    }

    public void store(String key, List<Trace> traces) {
        Path file = file(key);
        Path temp = dir.resolve(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(temp);
            TraceJson.append(temp, traces);
            try {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace cache " + file + ": " + e.getMessage(), e);
        }
    }
}
