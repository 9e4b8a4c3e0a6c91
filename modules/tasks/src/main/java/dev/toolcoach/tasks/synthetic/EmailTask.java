package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.email.Email;
import dev.toolcoach.tools.email.EmailTools;
import dev.toolcoach.trace.ToolCall;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Email-search questions generated from real messages: each names a message by its sender,
 * recipient, day and subject, and asks for something its search result does not show (who was on
 * Cc, or a phone number or dollar amount in the body beyond the snippet), so it is answerable only
 * by searching and then reading. The gold message id is kept under {@code message_ids}.
 */
public final class EmailTask {

    public static final String NAME = "email";

    /** How much of the body search results show (the tool's snippet); facts must lie beyond it. */
    static final int SNIPPET_CHARS = 200;

    private static final Pattern PHONE = Pattern.compile("\\(?\\b\\d{3}\\)?[-. ]\\d{3}[-.]\\d{4}\\b");
    private static final Pattern AMOUNT = Pattern.compile("\\$\\s?\\d[\\d,]*(?:\\.\\d+)?");
    private static final Pattern KEYWORD = Pattern.compile("[A-Za-z0-9]+");
    private static final Set<String> SUBJECT_PREFIXES = Set.of("re", "fw", "fwd");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.ENGLISH);

    private enum Kind { CC, PHONE, AMOUNT }

    private EmailTask() {
    }

    /**
     * Questions about the given messages, shuffled with {@code seed} and cut to at most {@code max}.
     * Messages that cannot be told apart by sender, day and subject are left out.
     */
    public static Task create(List<Email> emails, int max, long seed) {
        Map<String, Integer> sameKey = new HashMap<>();
        emails.forEach(e -> sameKey.merge(identity(e), 1, Integer::sum));
        List<TaskExample> examples = new ArrayList<>();
        Random random = new Random(seed);
        for (Email e : emails) {
            if (e.subject().isBlank() || e.to().isEmpty() || e.from().isEmpty() || sameKey.get(identity(e)) > 1) continue;
            firstCcNotInSearchResult(e).ifPresent(cc -> examples.add(question(e, Kind.CC, cc, random)));
            onlyFactNotInSearchResult(e, PHONE).ifPresent(p -> examples.add(question(e, Kind.PHONE, p, random)));
            onlyFactNotInSearchResult(e, AMOUNT).ifPresent(a -> examples.add(question(e, Kind.AMOUNT, a, random)));
        }
        Collections.shuffle(examples, new Random(seed));
        List<TaskExample> kept = examples.subList(0, Math.min(max, examples.size()));
        return new SimpleTask(NAME, List.of(EmailTools.SUITE), kept, AnswerReward.mentions());
    }

    private static TaskExample question(Email e, Kind kind, String answer, Random random) {
        String day = day(e).format(DAY);
        String which = pick(random,
                "the email %s sent to %s on %s with the subject \"%s\"",
                "the message from %s to %s dated %s, subject \"%s\"",
                "what %s wrote to %s on %s about \"%s\"").formatted(e.from(), e.to().get(0), day, e.subject());
        String template = switch (kind) {
            case CC -> pick(random, "Find %s. Who was on its Cc line? Give the first Cc address.",
                    "Look up %s. Which address was copied (Cc) first?");
            case PHONE -> pick(random, "Find %s. What phone number does it give?",
                    "Look up %s. Which telephone number is mentioned in it?");
            case AMOUNT -> pick(random, "Find %s. What dollar amount does it mention?",
                    "Look up %s. How much money (in dollars) does it name?");
        };
        String query = template.formatted(which);
        String id = NAME + "_" + kind.name().toLowerCase(Locale.ROOT) + "_" + e.messageId();
        Map<String, Object> gold = new LinkedHashMap<>();
        gold.put("message_ids", List.of(e.messageId()));
        gold.put("question_type", kind.name().toLowerCase(Locale.ROOT));
        return TaskExample.question(id, query, answer, List.of(
                OracleStep.call("Search by sender, day and subject words.", searchCall(e)),
                OracleStep.call("The message is " + e.messageId() + "; read it.", new ToolCall("read_email", Map.of("message_id", e.messageId()))),
                OracleStep.answer("The message says it.", answer)), gold);
    }

    private static ToolCall searchCall(Email e) {
        Map<String, Object> args = new LinkedHashMap<>();
        String keywords = subjectKeywords(e.subject());
        if (!keywords.isEmpty()) args.put("keywords", keywords);
        args.put("from", e.from());
        args.put("date_from", day(e).toString());
        args.put("date_to", day(e).toString());
        return new ToolCall("search_emails", args);
    }

    /**
     * The plain words of a subject, safe as search keywords that must all occur: no "RE:", no
     * punctuation, and no English stop words (the index drops them, and a query of only stop words
     * matches nothing).
     */
    static String subjectKeywords(String subject) {
        return Arrays.stream(subject.split("\\s+"))
                .filter(w -> KEYWORD.matcher(w).matches())
                .filter(w -> !SUBJECT_PREFIXES.contains(w.toLowerCase(Locale.ROOT))
                        && !EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(w.toLowerCase(Locale.ROOT)))
                .collect(Collectors.joining(" "));
    }

    /** The first Cc address, unless the message's search result already shows it. */
    private static Optional<String> firstCcNotInSearchResult(Email e) {
        return e.cc().isEmpty() || shownInSearchResult(e, e.cc().get(0)) ? Optional.empty() : Optional.of(e.cc().get(0));
    }

    /** The one distinct match of the pattern in the body, unless the message's search result already shows it. */
    private static Optional<String> onlyFactNotInSearchResult(Email e, Pattern pattern) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = pattern.matcher(e.body());
        while (m.find()) found.add(m.group());
        if (found.size() != 1) return Optional.empty();
        String fact = found.iterator().next();
        return shownInSearchResult(e, fact) ? Optional.empty() : Optional.of(fact);
    }

    /**
     * Whether a search hit for the message shows the text: its sender, To, subject, or snippet (the
     * body's first characters with whitespace collapsed, as the email index makes it).
     */
    private static boolean shownInSearchResult(Email e, String text) {
        String collapsed = e.body().strip().replaceAll("\\s+", " ");
        String shown = String.join("\n", e.from(), String.join(", ", e.to()), e.subject(),
                collapsed.substring(0, Math.min(SNIPPET_CHARS, collapsed.length())));
        return shown.toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT));
    }

    private static String identity(Email e) {
        return e.from() + "|" + day(e) + "|" + e.subject().toLowerCase(Locale.ROOT);
    }

    private static LocalDate day(Email e) {
        return e.date().atZone(ZoneOffset.UTC).toLocalDate();
    }

    private static String pick(Random random, String... phrasings) {
        return phrasings[random.nextInt(phrasings.length)];
    }
}
