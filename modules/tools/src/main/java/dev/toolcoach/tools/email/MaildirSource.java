package dev.toolcoach.tools.email;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A directory tree with one message per file: a Maildir ({@code cur/}, {@code new/}; {@code tmp/}
 * holds half-delivered mail and is left out) or the Enron layout {@code <mailbox>/<folder>/<n>.}.
 * Files are read in path order, so indexing is deterministic.
 */
public final class MaildirSource implements MailSource {

    private final Path root;

    public MaildirSource(Path root) {
        this.root = root;
    }

    @Override
    public void read(MessageSink sink) throws MailSourceException {
        if (!Files.isDirectory(root)) {
            throw new MailSourceException("cannot read maildir " + root + ": " + (Files.exists(root) ? "not a directory" : "no such directory"));
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).filter(this::isMessageFile).sorted().toList();
        } catch (IOException | RuntimeException e) {
            throw new MailSourceException("cannot list maildir " + root + ": " + e.getMessage(), e);
        }
        for (Path file : files) {
            String location = root.relativize(file).toString();
            try {
                sink.message(new RawMessage(location, Files.readAllBytes(file)));
            } catch (IOException e) {
                sink.skipped(location, "unreadable file: " + e.getMessage());
            }
        }
    }

    private boolean isMessageFile(Path file) {
        for (Path part : root.relativize(file)) {
            if (part.toString().startsWith(".")) return false;
        }
        Path folder = file.getParent();
        boolean maildirTmp = folder.getFileName().toString().equals("tmp") && Files.isDirectory(folder.resolveSibling("cur"));
        return !maildirTmp;
    }
}
