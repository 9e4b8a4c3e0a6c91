package dev.toolcoach.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Appends survive a crash mid-write: the torn last line is cut off, never glued to the next record; a line that is not UTF-8 is a counted skip. */
class JsonLinesTest {

    @Test
    void anAppendAfterATornLineStartsOnALineOfItsOwn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("records.jsonl");
        JsonLines.write(file, List.of("{\"n\":1}", "{\"n\":2}"), s -> s, true, "records");
        Files.writeString(file, "{\"n\":3, \"te", StandardOpenOption.APPEND); // the crash

        JsonLines.write(file, List.of("{\"n\":4}"), s -> s, true, "records");

        assertEquals("{\"n\":1}\n{\"n\":2}\n{\"n\":4}\n", Files.readString(file));
        JsonLines.Read<String> read = JsonLines.read(file, "records", s -> TraceJson.mapper().readTree(s).toString());
        assertEquals(3, read.items().size());
        assertEquals(List.of(), read.skipped());
    }

    @Test
    void repairCutsOnlyBytesAfterTheLastNewlineAcrossBufferBoundaries(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("records.jsonl");
        String whole = "{\"n\":1}\n";
        String torn = "x".repeat(20_000); // longer than one read buffer
        Files.writeString(file, whole + torn, StandardCharsets.UTF_8);
        assertEquals(20_000, JsonLines.repairTornTail(file));
        assertEquals(whole, Files.readString(file));
        assertEquals(0, JsonLines.repairTornTail(file));

        Files.writeString(file, torn, StandardCharsets.UTF_8); // no newline at all: nothing whole in it
        assertEquals(20_000, JsonLines.repairTornTail(file));
        assertEquals(0, Files.size(file));
        assertEquals(0, JsonLines.repairTornTail(dir.resolve("absent.jsonl")));
    }

    @Test
    void aLineThatIsNotUtf8IsACountedSkipAndTheOthersAreRead(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write("\"caf\u00e9 \ufffd\"\n".getBytes(StandardCharsets.UTF_8)); // U+FFFD written as UTF-8 is text
        bytes.write(new byte[]{'"', (byte) 0xC3, '"', '\r', '\n'}); // a lead byte without its continuation
        bytes.write("\"ok\"".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("lines.jsonl"), bytes.toByteArray());

        JsonLines.Read<String> read = JsonLines.read(file, "strings", line -> new ObjectMapper().readValue(line, String.class));

        assertEquals(List.of("caf\u00e9 \ufffd", "ok"), read.items());
        assertEquals(List.of(new JsonLines.SkippedLine(2, "not valid UTF-8")), read.skipped());
    }
}
