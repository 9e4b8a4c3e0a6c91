package dev.toolcoach.tools.email;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a Lucene index of messages from mail sources. Every message is accounted for in the
 * {@link IndexReport}: indexed, skipped with its location and reason, or a duplicate Message-ID.
 */
public final class EmailIndexer {

    private final EmailParser parser = new EmailParser();

    /** An index with its report. */
    public record Result(EmailIndex index, IndexReport report) {
    }

    /** Indexes into memory, fine for corpora of some hundred thousand messages. */
    public Result indexInMemory(List<MailSource> sources) throws MailSourceException {
        return index(sources, new ByteBuffersDirectory());
    }

    /** Indexes into the directory (replacing what it held) and opens the result for search. */
    public Result index(List<MailSource> sources, Directory directory) throws MailSourceException {
        long start = System.nanoTime();
        Collector collector = new Collector();
        IndexWriterConfig config = new IndexWriterConfig(EmailAnalyzers.create()).setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            collector.writer = writer;
            for (MailSource source : sources) source.read(collector);
            writer.commit();
        } catch (IOException e) {
            throw new MailSourceException("cannot write the email index: " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new MailSourceException("cannot write the email index: " + e.getCause().getMessage(), e.getCause());
        }
        IndexReport report = new IndexReport(collector.read, collector.indexed, collector.skipped, collector.duplicates,
                (System.nanoTime() - start) / 1_000_000);
        try {
            return new Result(EmailIndex.open(directory), report);
        } catch (IOException e) {
            throw new MailSourceException("cannot open the email index just written: " + e.getMessage(), e);
        }
    }

    private final class Collector implements MailSource.MessageSink {
        IndexWriter writer;
        int read;
        int indexed;
        final List<IndexReport.SkippedMessage> skipped = new ArrayList<>();
        final List<IndexReport.SkippedMessage> duplicates = new ArrayList<>();
        final Map<String, String> locationById = new HashMap<>();

        @Override
        public void message(RawMessage raw) {
            read++;
            Email email;
            try {
                email = parser.parse(raw);
            } catch (MalformedMessageException e) {
                skipped.add(new IndexReport.SkippedMessage(raw.location(), e.getMessage()));
                return;
            }
            String first = locationById.putIfAbsent(email.messageId(), raw.location());
            if (first != null) {
                duplicates.add(new IndexReport.SkippedMessage(raw.location(), "same Message-ID as " + first));
                return;
            }
            try {
                writer.addDocument(document(email));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            indexed++;
        }

        @Override
        public void skipped(String location, String reason) {
            read++;
            skipped.add(new IndexReport.SkippedMessage(location, reason));
        }
    }

    private static Document document(Email email) {
        Document doc = new Document();
        doc.add(new StringField(EmailFields.ID, email.messageId(), Field.Store.YES));
        doc.add(new StringField(EmailFields.FROM, email.from(), Field.Store.YES));
        doc.add(new StoredField(EmailFields.FROM_NAME, email.fromName()));
        doc.add(new TextField(EmailFields.SENDER_WORDS, email.fromName() + " " + email.from(), Field.Store.NO));
        for (String to : email.to()) doc.add(new StringField(EmailFields.TO, to, Field.Store.YES));
        for (String cc : email.cc()) doc.add(new StringField(EmailFields.CC, cc, Field.Store.YES));
        List<String> recipients = new ArrayList<>(email.to());
        recipients.addAll(email.cc());
        for (String recipient : recipients) doc.add(new StringField(EmailFields.RECIPIENT, recipient, Field.Store.NO));
        doc.add(new TextField(EmailFields.RECIPIENT_WORDS, String.join(" ", recipients), Field.Store.NO));
        doc.add(new TextField(EmailFields.SUBJECT, email.subject(), Field.Store.YES));
        doc.add(new TextField(EmailFields.BODY, email.body(), Field.Store.YES));
        long millis = email.date().toEpochMilli();
        doc.add(new LongPoint(EmailFields.DATE, millis));
        doc.add(new NumericDocValuesField(EmailFields.DATE, millis));
        doc.add(new StoredField(EmailFields.DATE, millis));
        doc.add(new StoredField(EmailFields.LOCATION, email.location()));
        return doc;
    }
}
