package dev.toolcoach.tools.email;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.QueryBuilder;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Searches and reads an email index written by {@link EmailIndexer}. Thread-safe. */
public final class EmailIndex implements Closeable {

    private static final Pattern FULL_ADDRESS = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final int SNIPPET_CHARS = 200;
    private static final Sort NEWEST_FIRST = new Sort(new SortField(EmailFields.DATE, SortField.Type.LONG, true));
    private static final Sort BEST_THEN_NEWEST = new Sort(SortField.FIELD_SCORE,
            new SortField(EmailFields.DATE, SortField.Type.LONG, true));

    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    private final Analyzer analyzer = EmailAnalyzers.create();

    private EmailIndex(DirectoryReader reader) {
        this.reader = reader;
        this.searcher = new IndexSearcher(reader);
    }

    public static EmailIndex open(Directory directory) throws IOException {
        return new EmailIndex(DirectoryReader.open(directory));
    }

    public int size() {
        return reader.numDocs();
    }

    /** Matching messages, best first when keywords are given, else newest first. */
    public List<EmailHit> search(EmailQuery query) throws IOException {
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        boolean hasKeywords = query.keywords() != null && !query.keywords().isBlank();
        if (hasKeywords) all.add(keywordQuery(query.keywords()), BooleanClause.Occur.MUST);
        if (isGiven(query.from())) all.add(participantQuery(EmailFields.FROM, EmailFields.SENDER_WORDS, query.from()), BooleanClause.Occur.FILTER);
        if (isGiven(query.to())) all.add(participantQuery(EmailFields.RECIPIENT, EmailFields.RECIPIENT_WORDS, query.to()), BooleanClause.Occur.FILTER);
        if (query.dateFrom() != null || query.dateTo() != null) all.add(dateQuery(query), BooleanClause.Occur.FILTER);
        // an empty boolean query matches nothing; a search without criteria lists every message
        all.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
        TopDocs top = searcher.search(all.build(), query.limit(), hasKeywords ? BEST_THEN_NEWEST : NEWEST_FIRST, hasKeywords);
        List<EmailHit> hits = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc scoreDoc : top.scoreDocs) hits.add(hit(searcher.storedFields().document(scoreDoc.doc)));
        return hits;
    }

    /** The message with this Message-ID (angle brackets optional). */
    public Optional<Email> read(String messageId) throws IOException {
        TopDocs top = searcher.search(new TermQuery(new Term(EmailFields.ID, Email.normaliseId(messageId))), 1);
        if (top.scoreDocs.length == 0) return Optional.empty();
        return Optional.of(email(searcher.storedFields().document(top.scoreDocs[0].doc)));
    }

    @Override
    public void close() throws IOException {
        reader.close();
        analyzer.close();
    }

    /** Simple query syntax never fails on odd input ("quotes", -exclusions, a stray bracket is just text). */
    private Query keywordQuery(String keywords) {
        SimpleQueryParser parser = new SimpleQueryParser(analyzer, Map.of(EmailFields.SUBJECT, 2f, EmailFields.BODY, 1f));
        parser.setDefaultOperator(BooleanClause.Occur.MUST);
        Query parsed = parser.parse(keywords);
        return parsed == null ? new MatchNoDocsQuery("keywords are only stop words") : parsed;
    }

    private Query participantQuery(String exactField, String wordsField, String value) {
        String wanted = value.strip().toLowerCase();
        if (FULL_ADDRESS.matcher(wanted).matches()) return new TermQuery(new Term(exactField, wanted));
        Query words = new QueryBuilder(analyzer).createBooleanQuery(wordsField, wanted, BooleanClause.Occur.MUST);
        return words == null ? new MatchNoDocsQuery("no words in '" + value + "'") : words;
    }

    private static Query dateQuery(EmailQuery query) {
        long from = query.dateFrom() == null ? Long.MIN_VALUE
                : query.dateFrom().atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        long to = query.dateTo() == null ? Long.MAX_VALUE
                : query.dateTo().plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli() - 1;
        return LongPoint.newRangeQuery(EmailFields.DATE, from, to);
    }

    private static boolean isGiven(String value) {
        return value != null && !value.isBlank();
    }

    private static EmailHit hit(Document doc) {
        String body = doc.get(EmailFields.BODY).strip().replaceAll("\\s+", " ");
        String snippet = body.length() <= SNIPPET_CHARS ? body : body.substring(0, SNIPPET_CHARS) + "...";
        return new EmailHit(doc.get(EmailFields.ID), date(doc), doc.get(EmailFields.FROM),
                Arrays.asList(doc.getValues(EmailFields.TO)), doc.get(EmailFields.SUBJECT), snippet);
    }

    private static Email email(Document doc) {
        return new Email(doc.get(EmailFields.ID), doc.get(EmailFields.FROM), doc.get(EmailFields.FROM_NAME),
                Arrays.asList(doc.getValues(EmailFields.TO)), Arrays.asList(doc.getValues(EmailFields.CC)),
                doc.get(EmailFields.SUBJECT), date(doc), doc.get(EmailFields.BODY), doc.get(EmailFields.LOCATION));
    }

    private static Instant date(Document doc) {
        IndexableField date = doc.getField(EmailFields.DATE);
        return Instant.ofEpochMilli(date.numericValue().longValue());
    }
}
