package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * JSON Lines files, one record per line. Reading is lenient per line: a line that is not a valid
 * record is skipped and reported with its number, so one bad line never loses the rest of the file.
 */
public final class JsonLines {

    private JsonLines() {
    }

    /** Turns one line into a record; a line that is not one throws. */
    @FunctionalInterface
    public interface LineParser<T> {
        T parse(String line) throws JsonProcessingException;
    }

    /** Turns one record into its line (without the newline). */
    @FunctionalInterface
    public interface LineWriter<T> {
        String write(T item);
    }

    /** The records read from a file, and the lines that were not records. */
    public record Read<T>(List<T> items, List<SkippedLine> skipped) {
    }

    /** A line that could not be read, with its 1-based number and the reason. */
    public record SkippedLine(int lineNumber, String reason) {
    }

    /**
     * Reads every non-blank line of {@code file} with {@code parser}.
     *
     * @param what names the records in the error raised when the file itself cannot be read
     */
    public static <T> Read<T> read(Path file, String what, LineParser<T> parser) {
        List<T> items = new ArrayList<>();
        List<SkippedLine> skipped = new ArrayList<>();
        // read as Latin-1, one char per byte, so a line that is not UTF-8 is a counted skip, not the whole file failing
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
            String bytes;
            int number = 0;
            while ((bytes = r.readLine()) != null) {
                number++;
                String line;
                try {
                    line = utf8.decode(ByteBuffer.wrap(bytes.getBytes(StandardCharsets.ISO_8859_1))).toString();
                } catch (CharacterCodingException e) {
                    skipped.add(new SkippedLine(number, "not valid UTF-8"));
                    continue;
                }
                if (line.isBlank()) continue;
                try {
                    items.add(parser.parse(line));
                } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
                    skipped.add(new SkippedLine(number, reason(e)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + what + " from " + file + ": " + e.getMessage(), e);
        }
        return new Read<>(List.copyOf(items), List.copyOf(skipped));
    }

    /**
     * Writes one line per item, appending to {@code file} or replacing it; creates missing folders. An append is
     * crash-safe: a torn last line left by an earlier crash is cut off first (see {@link #repairTornTail}), the new
     * lines go out in one write and are synced before this returns, so a crash leaves at most one torn line at the
     * end, which the next open repairs.
     */
    public static <T> void write(Path file, Collection<? extends T> items, LineWriter<T> writer, boolean append,
                                 String what) {
        StringBuilder text = new StringBuilder();
        for (T item : items) text.append(writer.write(item)).append('\n');
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            if (append) repairTornTail(file);
            StandardOpenOption mode = append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) channel.write(buffer);
                if (append) channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what + " to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Cuts a torn last line (bytes after the last newline: a write a crash interrupted) off {@code file}, so the next
     * append starts on a line of its own and no half record is ever read as one.
     *
     * @return the bytes cut off; 0 when the file ends with a newline, is empty or does not exist
     */
    public static long repairTornTail(Path file) throws IOException {
        if (!Files.isRegularFile(file)) return 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            long end = size;
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (end > 0) {
                int chunk = (int) Math.min(buffer.capacity(), end);
                buffer.clear().limit(chunk);
                long at = end - chunk;
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, at + buffer.position()) < 0) throw new IOException("file shrank while read");
                }
                int newline = -1;
                for (int i = chunk - 1; i >= 0 && newline < 0; i--) if (buffer.get(i) == '\n') newline = i;
                if (newline >= 0) {
                    end = at + newline + 1;
                    break;
                }
                end = at;
            }
            if (end == size) return 0;
            channel.truncate(end);
            channel.force(false);
            return size - end;
        }
    }

    /** Why the line was skipped, never quoting it: a file's lines may be anything, and reasons end up in replies and logs. */
    private static String reason(Exception e) {
        return e instanceof JsonProcessingException j ? UntrustedJson.reason(j) : e.getMessage();
    }
}
