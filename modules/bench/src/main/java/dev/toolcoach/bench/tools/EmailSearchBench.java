package dev.toolcoach.bench.tools;

import dev.toolcoach.tools.email.Email;
import dev.toolcoach.tools.email.EmailHit;
import dev.toolcoach.tools.email.EmailIndex;
import dev.toolcoach.tools.email.EmailIndexer;
import dev.toolcoach.tools.email.EmailQuery;
import dev.toolcoach.tools.email.IndexReport;
import dev.toolcoach.tools.email.MailSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Email suite speed on the real Enron sample: time to index the maildir and the CSV (first, cold
 * run and the median of warm runs), then latency percentiles of a fixed-seed mix of searches
 * (keywords, sender, recipient, date range, combinations) and of read_email.
 *
 * <p>Run: {@code java -cp ... dev.toolcoach.bench.tools.EmailSearchBench [enron-dir] [searches]}
 * (default {@code ../shared/data/enron}, 5,000 searches after 1,000 warm-up searches).
 */
public final class EmailSearchBench {

    private static final int INDEX_RUNS = 5;
    private static final int WARMUP_SEARCHES = 1_000;
    private static final long SEED = 42;

    private EmailSearchBench() {
    }

    public static void main(String[] args) throws Exception {
        Path enron = Path.of(args.length > 0 ? args[0] : "../shared/data/enron");
        int searches = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        if (!Files.isDirectory(enron.resolve("maildir"))) {
            System.err.println("no Enron sample at " + enron.toAbsolutePath() + " (expected maildir/ and emails_sample.csv)");
            System.exit(2);
        }
        List<MailSource> sources = List.of(MailSource.at(enron.resolve("maildir")), MailSource.at(enron.resolve("emails_sample.csv")));

        long[] indexMillis = new long[INDEX_RUNS];
        EmailIndexer.Result result = null;
        for (int run = 0; run < INDEX_RUNS; run++) {
            if (result != null) result.index().close();
            result = new EmailIndexer().indexInMemory(sources);
            indexMillis[run] = result.report().elapsedMillis();
        }
        IndexReport report = result.report();
        EmailIndex index = result.index();
        System.out.printf("indexed %d of %d messages (%d skipped, %d duplicate Message-IDs)%n",
                report.indexed(), report.messagesRead(), report.skipped().size(), report.duplicates().size());
        long[] warm = Arrays.copyOfRange(indexMillis, 1, INDEX_RUNS);
        Arrays.sort(warm);
        System.out.printf("indexing: first run %d ms, warm median %d ms (%d runs)%n", indexMillis[0], warm[warm.length / 2], warm.length);

        List<Email> sample = sampleMessages(index);
        List<EmailQuery> queries = queryMix(sample, WARMUP_SEARCHES + searches, new Random(SEED));
        long totalHits = 0;
        long[] searchNanos = new long[searches];
        for (int i = 0; i < queries.size(); i++) {
            long start = System.nanoTime();
            List<EmailHit> hits = index.search(queries.get(i));
            long elapsed = System.nanoTime() - start;
            if (i >= WARMUP_SEARCHES) {
                searchNanos[i - WARMUP_SEARCHES] = elapsed;
                totalHits += hits.size();
            }
        }
        report("search_emails", searchNanos);
        System.out.printf("  mean hits per search %.1f%n", totalHits / (double) searches);

        long[] readNanos = new long[searches];
        Random random = new Random(SEED);
        for (int i = 0; i < WARMUP_SEARCHES + searches; i++) {
            String id = sample.get(random.nextInt(sample.size())).messageId();
            long start = System.nanoTime();
            index.read(id).orElseThrow();
            if (i >= WARMUP_SEARCHES) readNanos[i - WARMUP_SEARCHES] = System.nanoTime() - start;
        }
        report("read_email", readNanos);
        index.close();
    }

    /** Every indexed message, newest first (a search without criteria lists them all). */
    private static List<Email> sampleMessages(EmailIndex index) throws Exception {
        List<Email> emails = new ArrayList<>();
        for (EmailHit hit : index.search(new EmailQuery(null, null, null, null, null, index.size()))) {
            emails.add(index.read(hit.messageId()).orElseThrow());
        }
        return emails;
    }

    /** Searches an agent would make: words from real subjects, real senders and recipients, weeks around real dates. */
    private static List<EmailQuery> queryMix(List<Email> emails, int count, Random random) {
        List<EmailQuery> queries = new ArrayList<>(count);
        while (queries.size() < count) {
            Email e = emails.get(random.nextInt(emails.size()));
            String[] words = e.subject().replaceAll("[^A-Za-z ]", " ").trim().split("\\s+");
            String keyword = words[random.nextInt(words.length)];
            LocalDate day = e.date().atZone(ZoneOffset.UTC).toLocalDate();
            String recipient = e.to().isEmpty() ? null : e.to().get(0);
            queries.add(switch (random.nextInt(5)) {
                case 0 -> new EmailQuery(keyword, null, null, null, null, 10);
                case 1 -> new EmailQuery(null, e.from(), null, null, null, 10);
                case 2 -> new EmailQuery(null, null, recipient, null, null, 10);
                case 3 -> new EmailQuery(null, null, null, day.minusDays(7), day.plusDays(7), 10);
                default -> new EmailQuery(keyword, e.from(), null, day.minusDays(30), day.plusDays(30), 10);
            });
        }
        return queries;
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%s latency over %d calls: p50 %.1f us, p99 %.1f us, max %.1f us%n", what, sorted.length,
                sorted[sorted.length / 2] / 1e3, sorted[(int) (sorted.length * 0.99)] / 1e3, sorted[sorted.length - 1] / 1e3);
    }
}
