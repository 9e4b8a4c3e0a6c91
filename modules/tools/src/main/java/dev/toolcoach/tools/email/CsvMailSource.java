package dev.toolcoach.tools.email;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvReadException;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Kaggle-style CSV of raw messages: a header row with a {@code message} column holding the
 * RFC 822 text (quoted, spanning many lines) and optionally a {@code file} column naming the
 * original file. A row without a message or with a stray column is skipped with its line number;
 * broken quoting skips the rest of the file, reported at the line where it starts.
 */
public final class CsvMailSource implements MailSource {

    private static final CsvMapper CSV = new CsvMapper();

    private final Path file;

    public CsvMailSource(Path file) {
        this.file = file;
    }

    @Override
    public void read(MessageSink sink) throws MailSourceException {
        if (!Files.isRegularFile(file)) {
            throw new MailSourceException("cannot read CSV mailbox " + file + ": "
                    + (Files.isDirectory(file) ? "it is a directory" : "no such file"));
        }
        CsvSchema header = CsvSchema.emptySchema().withHeader();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             MappingIterator<Map<String, String>> rows = CSV.readerFor(Map.class).with(header).readValues(reader)) {
            CsvSchema columns = (CsvSchema) rows.getParserSchema();
            if (columns.column("message") == null) {
                throw new MailSourceException("CSV mailbox " + file + " has no 'message' column; its columns are "
                        + columns.getColumnDesc());
            }
            while (true) {
                // where the parser stands once it has moved to the next row (past the rest of a broken one)
                long line = rows.getCurrentLocation().getLineNr();
                try {
                    if (!rows.hasNextValue()) break;
                    line = rows.getCurrentLocation().getLineNr();
                    Map<String, String> row = rows.nextValue();
                    String location = file.getFileName() + ":" + line
                            + (row.get("file") == null || row.get("file").isBlank() ? "" : " (" + row.get("file") + ")");
                    String message = row.get("message");
                    if (message == null || message.isBlank()) sink.skipped(location, "row has no message text");
                    else sink.message(new RawMessage(location, message.getBytes(StandardCharsets.UTF_8)));
                } catch (CsvReadException e) {
                    // a row-level problem (e.g. a stray column); the iterator resumes at the next row
                    sink.skipped(file.getFileName() + ":" + line, "malformed CSV row: " + e.getOriginalMessage());
                } catch (JsonParseException e) {
                    // broken quoting (an unclosed quote) leaves no way to tell where later rows start
                    sink.skipped(file.getFileName() + ":" + line, "malformed CSV from this line to the end of the file, not read: "
                            + e.getOriginalMessage());
                    break;
                }
            }
        } catch (IOException e) {
            throw new MailSourceException("cannot read CSV mailbox " + file + ": " + e.getMessage(), e);
        }
    }
}
