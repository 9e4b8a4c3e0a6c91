package dev.toolcoach.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Locates the third-party test data (../shared/data); tests that need it skip when it is absent. */
public final class SharedData {

    private SharedData() {
    }

    /** The file or directory under the shared data root; skips the calling test when it is not there. */
    public static Path require(String relative) {
        String root = System.getProperty("toolcoach.shared.data");
        assumeTrue(root != null, "system property toolcoach.shared.data is not set: skipping test on shared data");
        Path p = Path.of(root).resolve(relative);
        assumeTrue(Files.exists(p), "shared test data " + p + " is absent: skipping");
        return p;
    }
}
