package dev.toolcoach.retrieval.lexical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.ScoredTool;
import dev.toolcoach.retrieval.ToolCatalog;
import dev.toolcoach.retrieval.ToolRetrievalException;
import dev.toolcoach.retrieval.ToolRetriever;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BM25 over an in-memory Lucene index of the catalog, with one field per part of a tool (name split
 * into words, description, parameter names, parameter descriptions) and a boost per field. Text is
 * stemmed and stop words dropped (Lucene's English analyzer), so "dimensions" finds "dimension".
 */
public final class LexicalRetriever implements ToolRetriever, AutoCloseable {

    private static final String NAME = "name";
    private static final String DESCRIPTION = "description";
    private static final String PARAMETER_NAMES = "parameter_names";
    private static final String PARAMETER_DESCRIPTIONS = "parameter_descriptions";
    private static final String ORDINAL = "ordinal";

    private final ToolCatalog catalog;
    // a fixed field order keeps float score sums, and so tie-breaks, the same on every run
    private final List<Map.Entry<String, Float>> boosts;
    private final Analyzer analyzer = new EnglishAnalyzer();
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    // every term adds one clause per field, and Lucene refuses queries over its clause limit
    private final int maxQueryTerms;

    public LexicalRetriever(ToolCatalog catalog, FieldBoosts boosts) {
        this.catalog = catalog;
        this.boosts = List.of(Map.entry(NAME, boosts.name()), Map.entry(DESCRIPTION, boosts.description()),
                Map.entry(PARAMETER_NAMES, boosts.parameterNames()),
                Map.entry(PARAMETER_DESCRIPTIONS, boosts.parameterDescriptions()));
        this.maxQueryTerms = IndexSearcher.getMaxClauseCount() / this.boosts.size();
        try {
            index(catalog);
            this.reader = DirectoryReader.open(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the in-memory tool index", e);
        }
        this.searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
    }

    public LexicalRetriever(ToolCatalog catalog) {
        this(catalog, FieldBoosts.defaults());
    }

    @Override
    public List<ScoredTool> retrieve(String query, int k) {
        ToolRetriever.checkK(k);
        Query q = query(query);
        List<ScoredTool> out = new ArrayList<>();
        try {
            StoredFields stored = searcher.storedFields();
            for (ScoreDoc hit : searcher.search(q, k).scoreDocs) {
                int ordinal = stored.document(hit.doc).getField(ORDINAL).numericValue().intValue();
                out.add(new ScoredTool(catalog.get(ordinal), hit.score));
            }
        } catch (IOException e) {
            throw new ToolRetrievalException("searching the in-memory tool index failed: " + e.getMessage(), e);
        }
        return out;
    }

    public ToolCatalog catalog() {
        return catalog;
    }

    @Override
    public void close() {
        try {
            reader.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the in-memory tool index", e);
        } finally {
            analyzer.close();
        }
    }

    private void index(ToolCatalog catalog) throws IOException {
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            for (int i = 0; i < catalog.size(); i++) writer.addDocument(document(i, catalog.get(i)));
        }
    }

    private static Document document(int ordinal, ToolSpec tool) {
        Document doc = new Document();
        doc.add(new StoredField(ORDINAL, ordinal));
        doc.add(new TextField(NAME, IdentifierWords.split(tool.name()), Field.Store.NO));
        doc.add(new TextField(DESCRIPTION, tool.description(), Field.Store.NO));
        StringBuilder names = new StringBuilder();
        StringBuilder descriptions = new StringBuilder();
        collectParameters(tool.parameters(), names, descriptions);
        doc.add(new TextField(PARAMETER_NAMES, names.toString(), Field.Store.NO));
        doc.add(new TextField(PARAMETER_DESCRIPTIONS, descriptions.toString(), Field.Store.NO));
        return doc;
    }

    /** Names and descriptions of the parameters, including those nested in objects and array items. */
    private static void collectParameters(JsonNode schema, StringBuilder names, StringBuilder descriptions) {
        schema.path("properties").fields().forEachRemaining(p -> {
            names.append(IdentifierWords.split(p.getKey())).append('\n');
            descriptions.append(p.getValue().path("description").asText("")).append('\n');
            collectParameters(p.getValue(), names, descriptions);
        });
        JsonNode items = schema.path("items");
        if (items.isObject()) collectParameters(items, names, descriptions);
    }

    /** Every distinct query term, sought in every field with that field's boost (a BM25 sum over fields). */
    private Query query(String text) {
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        for (String term : terms(IdentifierWords.split(text))) {
            for (Map.Entry<String, Float> field : boosts) {
                if (field.getValue() > 0f) {
                    q.add(new BoostQuery(new TermQuery(new Term(field.getKey(), term)), field.getValue()), BooleanClause.Occur.SHOULD);
                }
            }
        }
        return q.build();
    }

    private Set<String> terms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream tokens = analyzer.tokenStream(DESCRIPTION, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken() && terms.size() < maxQueryTerms) terms.add(term.toString());
            tokens.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot analyse query text", e);
        }
        return terms;
    }
}
