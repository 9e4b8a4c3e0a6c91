package dev.toolcoach.tools.email;

import java.util.List;

/**
 * What indexing did with every message it was given.
 *
 * @param messagesRead  messages found in the sources (indexed + skipped + duplicates)
 * @param indexed       messages now searchable
 * @param skipped       messages that could not be read or parsed, each with its location and reason
 * @param duplicates    messages left out because one with the same Message-ID was indexed before
 * @param elapsedMillis wall-clock indexing time
 */
public record IndexReport(int messagesRead, int indexed, List<SkippedMessage> skipped, List<SkippedMessage> duplicates,
                          long elapsedMillis) {
    public IndexReport {
        skipped = List.copyOf(skipped);
        duplicates = List.copyOf(duplicates);
    }

    /** A message not indexed: where it is and why. */
    public record SkippedMessage(String location, String reason) {
        @Override
        public String toString() {
            return location + ": " + reason;
        }
    }
}
