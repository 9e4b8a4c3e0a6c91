package dev.toolcoach.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A doc written from code and checked in: the test fails while the file differs from what the code writes now, and
 * rewrites it when run with {@code -Dcommands.write=true}, so nobody edits it by hand.
 */
public final class GeneratedDoc {

    private GeneratedDoc() {
    }

    /** {@code relativePath} is from the repository root, which is the parent of a module's working directory. */
    public static void assertCurrent(String relativePath, String written) throws IOException {
        Path file = Path.of("..").resolve(relativePath).normalize();
        if (Boolean.getBoolean("commands.write")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, written);
        }
        String checkedIn = Files.exists(file) ? Files.readString(file) : "";
        assertEquals(written, checkedIn, relativePath + " is stale: rerun this test with -Dcommands.write=true");
    }
}
