package dev.toolcoach.bench.retrieval;

import dev.toolcoach.retrieval.catalog.PooledCatalog;
import dev.toolcoach.retrieval.eval.BfclCases;
import dev.toolcoach.retrieval.eval.RecallEvaluator;
import dev.toolcoach.retrieval.eval.RecallReport;
import dev.toolcoach.retrieval.lexical.LexicalRetriever;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Recall@1/3/5/10 and query latency of the lexical (Lucene BM25) tool retriever on one catalog
 * pooled from every function schema of BFCL v3 (simple, multiple, parallel) and the Glaive and xLAM
 * toolcall files, asked every BFCL question. Two passes over all questions warm the JIT; the
 * third is measured. Latency is wall time per query on one thread, so it includes whatever else the
 * machine is running.
 *
 * <p>Run: {@code java -cp ... dev.toolcoach.bench.retrieval.RetrievalRecallBench [shared-data-dir]}
 * (default {@code ../shared/data}).
 */
public final class RetrievalRecallBench {
    private RetrievalRecallBench() {
    }

    public static void main(String[] args) {
        Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
        if (!Files.isDirectory(data.resolve("bfcl")) || !Files.isDirectory(data.resolve("toolcall"))) {
            System.err.println("no bfcl/ and toolcall/ under " + data.toAbsolutePath() + "; pass the shared data folder");
            System.exit(2);
        }
        PooledCatalog pooled = PooledCatalog.load(data);
        BfclCases bfcl = BfclCases.load(data);
        System.out.println(pooled.summary());
        System.out.println(bfcl.summary());
        RecallEvaluator evaluator = new RecallEvaluator(List.of(1, 3, 5, 10));
        long start = System.nanoTime();
        try (LexicalRetriever lexical = new LexicalRetriever(pooled.catalog())) {
            System.out.printf("index built in %.1f ms%n", (System.nanoTime() - start) / 1e6);
            for (int warmUp = 0; warmUp < 2; warmUp++) evaluator.evaluate(lexical, bfcl.cases());
            RecallReport report = evaluator.evaluate(lexical, bfcl.cases());
            System.out.println("lexical (BM25, default field boosts):");
            System.out.print(report.format());
        }
    }
}
