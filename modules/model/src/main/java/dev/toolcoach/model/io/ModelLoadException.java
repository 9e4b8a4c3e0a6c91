package dev.toolcoach.model.io;

import java.nio.file.Path;

/** A model file could not be used; the message names the file and the problem. */
public final class ModelLoadException extends RuntimeException {
    public ModelLoadException(Path file, String problem) {
        super(file + ": " + problem);
    }

    public ModelLoadException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
    }
}
