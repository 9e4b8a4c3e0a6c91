package dev.toolcoach.tools.email;

import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The email suite on the real Enron messages in ../shared/data/enron (a maildir of 993 and a CSV of
 * 500). Expected values were found independently with Python's email package.
 */
class EnronIndexTest {

    private static final String SARA = "sara.shackleton@enron.com";
    private static EmailIndex index;
    private static IndexReport report;

    @BeforeAll
    static void indexEnron() throws Exception {
        EmailIndexer.Result result = EnronFixture.indexed();
        index = result.index();
        report = result.report();
    }

    @Test
    void everyMessageOfBothSourcesIsAccountedFor() {
        assertEquals(993 + 500, report.messagesRead());
        assertEquals(List.of(), report.skipped());
        // two CSV rows are the very messages of two maildir files
        assertEquals(2, report.duplicates().size());
        assertTrue(report.duplicates().get(0).location().contains("(dasovich-j/sent_items/856.)"), report.duplicates().toString());
        assertTrue(report.duplicates().get(0).reason().contains("dasovich-j/sent_items/856."), report.duplicates().toString());
        assertEquals(1491, report.indexed());
        assertEquals(1491, index.size());
    }

    @Test
    void headersAndBodyOfACsvMessageAreParsed() throws Exception {
        Email email = index.read("<21013688.1075844564560.JavaMail.evans@thyme>").orElseThrow();
        assertEquals("21013688.1075844564560.JavaMail.evans@thyme", email.messageId());
        assertEquals(SARA, email.from());
        assertEquals("Sara Shackleton", email.fromName(), "from the X-From export header");
        assertEquals(List.of("william.bradford@enron.com"), email.to());
        assertEquals("Re: Credit Derivatives", email.subject());
        assertEquals(Instant.parse("2000-08-29T08:26:00Z"), email.date(), "Tue, 29 Aug 2000 01:26:00 -0700 (PDT)");
        assertTrue(email.body().startsWith("Bill:  Thanks for the info."), email.body());
        assertTrue(email.body().contains("Jeff's \"positions\" will be hedges"), "CSV quote escaping undone");
        assertEquals("emails_sample.csv:2 (shackleton-s/sent/1912.)", email.location());
        // rows span many lines; each location names the line its row starts on
        assertEquals("emails_sample.csv:73 (farmer-d/logistics/1066.)",
                index.read("22688499.1075854130303.JavaMail.evans@thyme").orElseThrow().location());
        assertEquals("emails_sample.csv:30905 (campbell-l/all_documents/1817.)",
                index.read("21852239.1075857905339.JavaMail.evans@thyme").orElseThrow().location());
    }

    @Test
    void foldedRecipientHeaderIsUnfolded() throws Exception {
        Email email = index.read("27462232.1075841339539.JavaMail.evans@thyme").orElseThrow();
        assertEquals(32, email.to().size(), email.to().toString());
        assertEquals("robert.anderson@enron.com", email.to().get(0));
        assertTrue(email.to().contains("kenton.erwin@enron.com"), "an address from a continuation line");
        assertEquals("bill.williams@enron.com", email.to().get(31));
        assertEquals("Conf Call - DAN LEFF", email.subject());
        assertEquals(Instant.parse("2002-03-22T00:50:55Z"), email.date());
    }

    @Test
    void keywordSearchFindsExactlyTheMessagesContainingTheWord() throws Exception {
        Set<String> ids = ids(index.search(new EmailQuery("thanksgiving", null, null, null, null, 50)));
        assertEquals(Set.of("15139751.1075851744476.JavaMail.evans@thyme", "20650688.1075851739976.JavaMail.evans@thyme",
                "21744239.1075847163257.JavaMail.evans@thyme", "24541648.1075846747614.JavaMail.evans@thyme",
                "25916518.1075858952693.JavaMail.evans@thyme", "8329284.1075846922166.JavaMail.evans@thyme"), ids);
        assertEquals(Set.of("17860391.1075840017375.JavaMail.evans@thyme"),
                ids(index.search(new EmailQuery("betfrequent points", null, null, null, null, 50))));
    }

    @Test
    void senderFilterByAddressOrByNameWords() throws Exception {
        List<EmailHit> byAddress = index.search(new EmailQuery(null, SARA, null, null, null, 50));
        assertEquals(35, byAddress.size());
        assertTrue(byAddress.stream().allMatch(h -> h.from().equals(SARA)));
        assertEquals(ids(byAddress), ids(index.search(new EmailQuery(null, "Shackleton", null, null, null, 50))));
        for (int i = 1; i < byAddress.size(); i++) {
            assertTrue(!byAddress.get(i).date().isAfter(byAddress.get(i - 1).date()), "newest first without keywords");
        }
    }

    @Test
    void recipientFilterCoversToAndCc() throws Exception {
        assertEquals(19, index.search(new EmailQuery(null, null, "john.lavorato@enron.com", null, null, 50)).size());
    }

    @Test
    void dateRangeIsInclusiveOfBothDays() throws Exception {
        List<EmailHit> august = index.search(new EmailQuery(null, SARA, null,
                LocalDate.parse("2000-08-01"), LocalDate.parse("2000-08-31"), 50));
        assertEquals(Set.of("21013688.1075844564560.JavaMail.evans@thyme", "21363767.1075844561942.JavaMail.evans@thyme"),
                ids(august));
        List<EmailHit> oneDay = index.search(new EmailQuery(null, SARA, null,
                LocalDate.parse("1999-05-21"), LocalDate.parse("1999-05-21"), 50));
        assertTrue(ids(oneDay).containsAll(Set.of("20688393.1075844309973.JavaMail.evans@thyme",
                "18806382.1075844309997.JavaMail.evans@thyme")), ids(oneDay).toString());
    }

    @Test
    void toolsSearchThenReadThroughTheExecutor() throws Exception {
        try (ToolExecutor executor = new ToolExecutor(EmailTools.suite(index), ExecutorSettings.defaults())) {
            ToolResult search = executor.call("t", new ToolCall("search_emails", Map.of("keywords", "credit derivatives",
                    "from", SARA, "date_from", "2000-08-29", "date_to", "2000-08-29"))).get(10, TimeUnit.SECONDS);
            assertEquals(ToolResult.Status.OK, search.status(), search.text());
            assertTrue(search.text().startsWith("1 message:\n- message_id: 21013688.1075844564560.JavaMail.evans@thyme"), search.text());
            assertEquals("21013688.1075844564560.JavaMail.evans@thyme",
                    ((Map<?, ?>) ((List<?>) search.structured()).get(0)).get("message_id"));

            ToolResult read = executor.call("t", new ToolCall("read_email",
                    Map.of("message_id", "21013688.1075844564560.JavaMail.evans@thyme"))).get(10, TimeUnit.SECONDS);
            assertTrue(read.text().startsWith("Message-ID: 21013688.1075844564560.JavaMail.evans@thyme\nDate: 2000-08-29T08:26:00Z\n"
                    + "From: Sara Shackleton <sara.shackleton@enron.com>\nTo: william.bradford@enron.com\n"
                    + "Subject: Re: Credit Derivatives\n\nBill:  Thanks for the info."), read.text());
            assertEquals("Re: Credit Derivatives", ((Map<?, ?>) read.structured()).get("subject"));

            ToolResult missing = executor.call("t", new ToolCall("read_email", Map.of("message_id", "nope@nowhere")))
                    .get(10, TimeUnit.SECONDS);
            assertEquals(ToolResult.Status.ERROR, missing.status());
            assertTrue(missing.error().startsWith("no message has message_id 'nope@nowhere'"), missing.error());

            ToolResult badRange = executor.call("t", new ToolCall("search_emails", Map.of("date_from", "2001-02-01",
                    "date_to", "2001-01-01"))).get(10, TimeUnit.SECONDS);
            assertEquals("date_from 2001-02-01 is after date_to 2001-01-01", badRange.error());
            ToolResult badDate = executor.call("t", new ToolCall("search_emails", Map.of("date_from", "last week")))
                    .get(10, TimeUnit.SECONDS);
            assertEquals(ToolResult.Status.INVALID_ARGUMENTS, badDate.status());
            assertTrue(badDate.error().contains("date_from: string \"last week\" is not a date like 2001-05-14"), badDate.error());
        }
    }

    private static Set<String> ids(List<EmailHit> hits) {
        return hits.stream().map(EmailHit::messageId).collect(Collectors.toSet());
    }
}
