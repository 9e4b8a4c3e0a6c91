package dev.toolcoach.tools.email;

import java.nio.file.Files;
import java.nio.file.Path;

/** A mailbox to index: an mbox file, a maildir tree, or a Kaggle-style CSV of raw messages. */
public interface MailSource {

    /** Hands every message to the sink; a message that cannot be read is reported as skipped, not fatal. */
    void read(MessageSink sink) throws MailSourceException;

    interface MessageSink {
        void message(RawMessage message);

        void skipped(String location, String reason);
    }

    /** The source a path denotes: a directory is a maildir, a {@code .csv} file a CSV, anything else an mbox. */
    static MailSource at(Path path) {
        if (Files.isDirectory(path)) return new MaildirSource(path);
        if (path.getFileName() != null && path.getFileName().toString().toLowerCase().endsWith(".csv")) return new CsvMailSource(path);
        return new MboxSource(path);
    }
}
