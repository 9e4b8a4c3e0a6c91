package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.tools.email.Email;
import dev.toolcoach.tools.email.EmailIndex;
import dev.toolcoach.tools.email.EmailIndexer;
import dev.toolcoach.tools.email.EmailTools;
import dev.toolcoach.tools.email.MailSource;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.Turn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Email questions over the real Enron messages, and the done-when run: an in-process agent
 * driven by a scripted model completes an email-search task end to end over the real Lucene index.
 */
class EmailTaskTest {

    private static EmailIndex index;
    private static ToolExecutor tools;
    private static Task task;

    @BeforeAll
    static void indexEnron() throws Exception {
        Path enron = SharedData.require("enron");
        List<MailSource> sources = List.of(MailSource.at(enron.resolve("maildir")), MailSource.at(enron.resolve("emails_sample.csv")));
        LoadResult<Email> corpus = EmailCorpus.read(sources);
        index = new EmailIndexer().indexInMemory(sources).index();
        assertEquals(corpus.items().size(), index.size(), "the task sees exactly the indexed messages");
        tools = new ToolExecutor(EmailTools.suite(index), ExecutorSettings.defaults());
        task = EmailTask.create(corpus.items(), 10_000, 17);
        System.out.println("email: " + corpus.items().size() + " messages, " + corpus.malformed().size()
                + " skipped/duplicate, " + task.examples().size() + " questions");
    }

    @AfterAll
    static void close() throws Exception {
        if (tools != null) tools.close();
        if (index != null) index.close();
    }

    /** Byte-level tokens make messages long: room for whole search results and bodies. */
    private static final AgentConfig CONFIG = AgentConfig.defaults().withLimits(6, 200_000).withTools(Duration.ofSeconds(30), 100_000);

    private static Trace oracle(TaskExample ex) throws Exception {
        return OracleRollout.run(ex, tools, CONFIG).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void everyQuestionIsSolvedBySearchingThenReadingNotFromTheSearchResult() throws Exception {
        assertTrue(task.examples().size() > 250, "questions: " + task.examples().size());
        for (String kind : List.of("cc", "phone", "amount")) {
            assertTrue(task.examples().stream().anyMatch(e -> e.gold().get("question_type").equals(kind)), kind);
        }
        for (TaskExample ex : task.examples()) {
            Trace trace = oracle(ex);
            assertEquals(Termination.ANSWER, trace.termination(), () -> ex.id() + ": " + trace.error() + " " + trace.turns());
            String goldId = ((List<?>) ex.gold().get("message_ids")).get(0).toString();
            ToolResult search = trace.turns().get(0).actionOutput().get(0);
            assertTrue(search.ok() && search.text().contains("message_id: " + goldId), () -> ex.id() + " search: " + search);
            Object goldHit = ((List<?>) search.structured()).stream()
                    .filter(h -> ((Map<?, ?>) h).get("message_id").equals(goldId)).findFirst().orElseThrow();
            assertFalse(goldHit.toString().contains(ex.goldAnswer()), () -> ex.id() + ": its search result shows " + ex.goldAnswer());
            ToolResult read = trace.turns().get(1).actionOutput().get(0);
            assertTrue(read.ok() && read.text().contains(ex.goldAnswer()), () -> ex.id() + " read: " + read);
            assertEquals(1.0, task.reward().score(ex, trace), ex.id());
        }
    }

    @Test
    void questionsAreReproducibleAndAWrongAnswerScoresZero() throws Exception {
        TaskExample ex = task.examples().get(0);
        assertEquals(task.examples(), EmailTask.create(corpusAgain(), 10_000, 17).examples());
        Trace right = oracle(ex);
        Trace wrong = new Trace(right.rolloutId(), right.groupId(), right.queryId(), right.query(), right.turns(), right.tokens(),
                "I could not find it.", Termination.ANSWER, null, right.startedAtMillis(), right.durationMillis(), right.metadata());
        assertEquals(0.0, task.reward().score(ex, wrong));
    }

    private static List<Email> corpusAgain() throws Exception {
        Path enron = SharedData.require("enron");
        return EmailCorpus.read(List.of(MailSource.at(enron.resolve("maildir")), MailSource.at(enron.resolve("emails_sample.csv")))).items();
    }

    /** Done-when of issue 5: search, read, answer, with a correct trace down to the tokens. */
    @Test
    void scriptedAgentCompletesAnEmailSearchEndToEndWithACorrectTrace() throws Exception {
        TaskExample ex = task.examples().stream().filter(e -> e.gold().get("question_type").equals("phone")).findFirst().orElseThrow();
        Trace trace = oracle(ex);

        assertEquals(Termination.ANSWER, trace.termination());
        assertNull(trace.error());
        assertEquals(ex.goldAnswer(), trace.finalAnswer());
        assertEquals(ex.id(), trace.queryId());
        assertEquals(ex.gold().get("message_ids"), trace.metadata().get("message_ids"), "gold ids travel with the trace");
        List<Turn> turns = trace.turns();
        assertEquals(3, turns.size());
        assertEquals(List.of("search_emails"), turns.get(0).parsedCompletion().toolCalls().stream().map(c -> c.name()).toList());
        assertEquals(List.of("read_email"), turns.get(1).parsedCompletion().toolCalls().stream().map(c -> c.name()).toList());
        assertEquals(ex.goldAnswer(), turns.get(2).parsedCompletion().finalAnswer());
        for (int i = 0; i < 3; i++) {
            assertTrue(turns.get(i).parsedCompletion().valid(), turns.get(i).parsedCompletion().toString());
            assertEquals(ex.oracleCompletions(ActionFormat.TOOL_N1).get(i), turns.get(i).modelCompletion());
        }
        assertTrue(turns.get(1).toolOutput().contains(ex.goldAnswer()));
        assertNull(turns.get(2).toolOutput());
        // each prompt is the previous one plus the previous reply and its observation
        assertTrue(turns.get(1).promptForModel().startsWith(turns.get(0).promptForModel() + turns.get(0).modelCompletion()));
        assertTrue(turns.get(2).promptForModel().contains(turns.get(1).toolOutput()));

        TokenRecord tokens = trace.tokens();
        int[] mask = tokens.lossMask();
        assertTrue(tokens.promptLength() > 0);
        assertEquals(tokens.promptLength(), turns.get(0).tokenStart());
        for (int i = 0; i < turns.size(); i++) {
            if (i > 0) assertEquals(turns.get(i - 1).tokenEnd(), turns.get(i).tokenStart(), "turns tile the token record");
        }
        assertEquals(tokens.length(), turns.get(2).tokenEnd());
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        int generated = 0;
        for (Turn turn : turns) {
            int replyLength = tokenizer.encode(turn.modelCompletion()).length + 1; // + the stop token
            for (int t = turn.tokenStart(); t < turn.tokenEnd(); t++) {
                boolean isReply = t < turn.tokenStart() + replyLength;
                assertEquals(isReply ? 1 : 0, mask[t], "loss mask at " + t);
                assertEquals(isReply ? 0 : -1, tokens.policyVersions()[t], "policy version at " + t);
                if (isReply) assertTrue(tokens.behaviorLogprobs()[t] < 0, "behaviour log-prob at " + t);
                else assertEquals(0f, tokens.behaviorLogprobs()[t], "no log-prob on observed token " + t);
            }
            generated += replyLength;
            String reply = tokenizer.decode(Arrays.copyOfRange(tokens.tokenIds(), turn.tokenStart(), turn.tokenStart() + replyLength));
            assertEquals(turn.modelCompletion() + "<|im_end|>", reply, "the exact generated tokens are recorded");
        }
        assertEquals(generated, tokens.generatedCount());
        for (int t = 0; t < tokens.promptLength(); t++) assertEquals(0, mask[t]);
        String all = tokenizer.decode(tokens.tokenIds());
        assertTrue(all.startsWith(turns.get(0).promptForModel()));
        assertTrue(all.contains(turns.get(1).toolOutput()), "observations are in the context as tokens");

        Trace back = TraceJson.fromJson(TraceJson.toJson(trace));
        assertEquals(trace.tokens(), back.tokens());
        assertEquals(trace.turns().size(), back.turns().size());
        assertEquals(trace.finalAnswer(), back.finalAnswer());
    }
}
