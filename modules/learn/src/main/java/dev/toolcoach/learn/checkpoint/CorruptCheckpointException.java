package dev.toolcoach.learn.checkpoint;

import java.nio.file.Path;

/** A checkpoint file that is truncated, damaged or not a checkpoint at all. */
public final class CorruptCheckpointException extends Exception {
    public CorruptCheckpointException(Path file, String problem) {
        super("checkpoint " + file + " refused: " + problem);
    }
}
