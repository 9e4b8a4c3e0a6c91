package dev.toolcoach.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonLinesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aLineThatIsNotUtf8IsACountedSkipAndTheOthersAreRead(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write("\"caf\u00e9 \ufffd\"\n".getBytes(StandardCharsets.UTF_8)); // U+FFFD written as UTF-8 is text
        bytes.write(new byte[]{'"', (byte) 0xC3, '"', '\r', '\n'}); // a lead byte without its continuation
        bytes.write("\"ok\"".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("lines.jsonl"), bytes.toByteArray());

        JsonLines.Read<String> read = JsonLines.read(file, "strings", line -> JSON.readValue(line, String.class));

        assertEquals(List.of("caf\u00e9 \ufffd", "ok"), read.items());
        assertEquals(List.of(new JsonLines.SkippedLine(2, "not valid UTF-8")), read.skipped());
    }
}
