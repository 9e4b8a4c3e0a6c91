package dev.toolcoach.cluster.coach;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The coach's cursor as the bytes a learner checkpoint carries (JSON, so a checkpoint can be read by eye). */
public final class CursorCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CursorCodec() {
    }

    public static byte[] encode(CoachCursor cursor) {
        try {
            return JSON.writeValueAsBytes(cursor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the coach cursor", e);
        }
    }

    /** @throws IllegalArgumentException when the bytes are not a coach cursor (a checkpoint of another kind of job) */
    public static CoachCursor decode(byte[] bytes) {
        try {
            return JSON.readValue(bytes, CoachCursor.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("the checkpoint's cursor is not a coach cursor: " + e.getMessage(), e);
        }
    }
}
