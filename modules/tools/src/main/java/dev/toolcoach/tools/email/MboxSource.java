package dev.toolcoach.tools.email;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * An mbox file (mboxrd): each message starts at a line beginning {@code "From "}, and body lines
 * that began with {@code ">From "} (any number of {@code >}) lose one {@code >}. Read as a stream,
 * so a mailbox of any size is never held in memory whole (mime4j's MboxIterator maps the whole file).
 */
public final class MboxSource implements MailSource {

    private static final Pattern ESCAPED_FROM = Pattern.compile("^>+From ");

    private final Path file;

    public MboxSource(Path file) {
        this.file = file;
    }

    @Override
    public void read(MessageSink sink) throws MailSourceException {
        if (!Files.isRegularFile(file)) {
            throw new MailSourceException("cannot read mbox " + file + ": "
                    + (Files.isDirectory(file) ? "it is a directory (a maildir?)" : "no such file"));
        }
        // ISO-8859-1 maps bytes to chars one to one, so the message bytes come back unchanged whatever their charset
        try (InputStream in = Files.newInputStream(file);
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            ByteArrayOutputStream message = null;
            int messageLine = 0;
            int lineNumber = 0;
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.startsWith("From ")) {
                    if (message != null) sink.message(raw(message, messageLine));
                    message = new ByteArrayOutputStream();
                    messageLine = lineNumber;
                    continue;
                }
                if (message == null) {
                    if (line.isBlank()) continue;
                    throw new MailSourceException("cannot read mbox " + file + ": line " + lineNumber
                            + " comes before the first 'From ' separator line; is this an mbox file?");
                }
                String unescaped = ESCAPED_FROM.matcher(line).find() ? line.substring(1) : line;
                message.writeBytes(unescaped.getBytes(StandardCharsets.ISO_8859_1));
                message.write('\n');
            }
            if (message != null) sink.message(raw(message, messageLine));
        } catch (IOException e) {
            throw new MailSourceException("cannot read mbox " + file + ": " + e.getMessage(), e);
        }
    }

    private RawMessage raw(ByteArrayOutputStream message, int line) {
        return new RawMessage(file.getFileName() + ":" + line, message.toByteArray());
    }
}
