package dev.toolcoach.tools.email;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Enron sample indexed once per test JVM and shared by the test classes that search it
 * (indexing is the slow part). Tests skip with a clear message where the data is absent.
 */
final class EnronFixture {

    private static EmailIndexer.Result result;

    private EnronFixture() {
    }

    static synchronized EmailIndexer.Result indexed() throws MailSourceException {
        String shared = System.getProperty("toolcoach.shared.data", "");
        Path enron = Path.of(shared, "enron");
        assumeTrue(!shared.isEmpty() && Files.isDirectory(enron.resolve("maildir")),
                "skipped: the Enron sample is not at " + enron.toAbsolutePath() + " (set -Dtoolcoach.shared.data)");
        if (result == null) {
            // in memory: nothing to clean up when the JVM ends
            result = new EmailIndexer().indexInMemory(List.of(
                    MailSource.at(enron.resolve("maildir")), MailSource.at(enron.resolve("emails_sample.csv"))));
        }
        return result;
    }
}
