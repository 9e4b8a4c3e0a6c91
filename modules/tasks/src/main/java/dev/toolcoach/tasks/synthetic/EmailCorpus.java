package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.datasets.DatasetIssue;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.tools.email.Email;
import dev.toolcoach.tools.email.EmailParser;
import dev.toolcoach.tools.email.MailSource;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.email.MalformedMessageException;
import dev.toolcoach.tools.email.RawMessage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parsed messages of some mailboxes, read the way the email index reads them (same parser, and
 * the first message of a Message-ID wins), so questions are about exactly what the tools can find.
 */
public final class EmailCorpus {

    private EmailCorpus() {
    }

    /** Every message of the sources; unreadable ones and repeated Message-IDs are listed as malformed. */
    public static LoadResult<Email> read(List<MailSource> sources) throws MailSourceException {
        EmailParser parser = new EmailParser();
        List<Email> emails = new ArrayList<>();
        List<DatasetIssue> skipped = new ArrayList<>();
        Map<String, String> firstLocation = new HashMap<>();
        for (MailSource source : sources) {
            source.read(new MailSource.MessageSink() {
                @Override
                public void message(RawMessage raw) {
                    try {
                        Email email = parser.parse(raw);
                        String first = firstLocation.putIfAbsent(email.messageId(), raw.location());
                        if (first == null) emails.add(email);
                        else skipped.add(new DatasetIssue(raw.location(), "same Message-ID as " + first));
                    } catch (MalformedMessageException e) {
                        skipped.add(new DatasetIssue(raw.location(), e.getMessage()));
                    }
                }

                @Override
                public void skipped(String location, String reason) {
                    skipped.add(new DatasetIssue(location, reason));
                }
            });
        }
        return new LoadResult<>("email sources " + sources.size(), emails, skipped, List.of());
    }
}
