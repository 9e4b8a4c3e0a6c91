package dev.toolcoach.openai;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads the {@code data} payloads of a server-sent-events stream, one event at a time. Comment
 * lines and other fields are skipped; multi-line data is joined with newlines.
 */
final class SseReader {

    private final BufferedReader reader;

    SseReader(BufferedReader reader) {
        this.reader = reader;
    }

    /** The next event's data, or null at the end of the stream. */
    String nextData() throws IOException {
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) return data.toString();
                continue;
            }
            if (!line.startsWith("data:")) continue;
            String value = line.substring(5);
            if (value.startsWith(" ")) value = value.substring(1);
            if (data == null) data = new StringBuilder(value);
            else data.append('\n').append(value);
        }
        return data == null ? null : data.toString();
    }
}
