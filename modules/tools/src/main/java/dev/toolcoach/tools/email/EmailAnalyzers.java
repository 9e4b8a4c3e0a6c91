package dev.toolcoach.tools.email;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;

import java.util.Map;

/** The analysis used at index and query time alike. */
final class EmailAnalyzers {

    private EmailAnalyzers() {
    }

    /**
     * English stemming for subject and body (a search for "meeting" finds "meetings"); letter-run
     * words for names and addresses, so "sara.shackleton@enron.com" is found by "shackleton".
     */
    static Analyzer create() {
        Analyzer words = new SimpleAnalyzer();
        return new PerFieldAnalyzerWrapper(new EnglishAnalyzer(), Map.of(
                EmailFields.SENDER_WORDS, words,
                EmailFields.RECIPIENT_WORDS, words));
    }
}
