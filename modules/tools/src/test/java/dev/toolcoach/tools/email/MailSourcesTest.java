package dev.toolcoach.tools.email;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mailbox formats and everything that can be wrong with a mailbox or a message in it. */
class MailSourcesTest {

    @TempDir
    Path dir;

    private static String message(String id, String date, String subject, String body) {
        return "Message-ID: <" + id + ">\nDate: " + date + "\nFrom: Ann Example <ann@example.org>\n"
                + "To: bob@example.org,\n\tcarol@example.org\nCc: dan@example.org\nSubject: " + subject + "\n\n" + body;
    }

    private static EmailIndexer.Result index(MailSource... sources) throws MailSourceException {
        return new EmailIndexer().indexInMemory(List.of(sources));
    }

    @Test
    void mboxMessagesAreSplitOnFromLinesAndUnescaped() throws Exception {
        Path mbox = dir.resolve("box.mbox");
        Files.writeString(mbox, "From ann@example.org Mon May 14 16:39:00 2001\n"
                + message("1@x", "Mon, 14 May 2001 16:39:00 -0700 (PDT)", "first", "Hello\n>From the start, a quoted From line.\n")
                + "\nFrom bob@example.org Tue May 15 09:00:00 2001\n"
                + message("2@x", "Tue, 15 May 2001 09:00:00 +0000", "=?UTF-8?Q?caf=C3=A9?= plans", "Second body\n"),
                StandardCharsets.UTF_8);
        EmailIndexer.Result result = index(MailSource.at(mbox));
        assertEquals(2, result.report().indexed());
        Email first = result.index().read("1@x").orElseThrow();
        assertEquals("box.mbox:1", first.location());
        assertEquals(List.of("bob@example.org", "carol@example.org"), first.to());
        assertEquals(List.of("dan@example.org"), first.cc());
        assertEquals("Ann Example", first.fromName());
        assertEquals(Instant.parse("2001-05-14T23:39:00Z"), first.date());
        assertTrue(first.body().contains("\nFrom the start"), first.body());
        Email second = result.index().read("2@x").orElseThrow();
        assertEquals("café plans", second.subject(), "RFC 2047 encoded word decoded");
        assertEquals("box.mbox:13", second.location());
    }

    @Test
    void multipartMessageBodyIsItsPlainTextPartDecoded() throws Exception {
        Path maildir = Files.createDirectories(dir.resolve("md/cur"));
        Files.writeString(maildir.resolve("1"), "Message-ID: <mp@x>\nDate: Tue, 15 May 2001 09:00:00 +0000\n"
                + "From: ann@example.org\nTo: bob@example.org\nSubject: parts\nMIME-Version: 1.0\n"
                + "Content-Type: multipart/alternative; boundary=\"b1\"\n\n--b1\n"
                + "Content-Type: text/html; charset=utf-8\n\n<p>html</p>\n--b1\n"
                + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
                + "Caf=C3=A9 at nine\n--b1--\n", StandardCharsets.UTF_8);
        Email email = index(MailSource.at(dir.resolve("md"))).index().read("mp@x").orElseThrow();
        assertEquals("Café at nine", email.body(), "the line break before a boundary belongs to the boundary");
    }

    @Test
    void malformedMessagesAreSkippedAndCountedWithTheirLocation() throws Exception {
        Path box = Files.createDirectories(dir.resolve("maildir/inbox"));
        Files.writeString(box.resolve("1."), message("good@x", "Mon, 14 May 2001 16:39:00 -0700", "fine", "ok"));
        Files.writeString(box.resolve("2."), "Date: Mon, 14 May 2001 16:39:00 -0700\nSubject: no id\n\nbody");
        Files.writeString(box.resolve("3."), message("baddate@x", "the fourteenth of May", "bad date", "body"));
        Files.writeString(box.resolve("4."), "");
        Files.writeString(box.resolve("5."), message("good@x", "Mon, 14 May 2001 16:39:00 -0700", "again", "ok"));
        Path csv = dir.resolve("mail.csv");
        Files.writeString(csv, "file,message\na/1.,\"" + message("csv@x", "Tue, 15 May 2001 09:00:00 +0000", "csv", "line one\nline two")
                + "\"\na/2.,\nb/3.,\"" + message("csv2@x", "Tue, 15 May 2001 09:00:00 +0000", "csv", "x") + "\"\n"
                + "c/4.,\"" + message("csv3@x", "Tue, 15 May 2001 09:00:00 +0000", "csv", "x") + "\",stray\n"
                + "d/5.,\"" + message("csv4@x", "Tue, 15 May 2001 09:00:00 +0000", "csv", "never closed\n"));
        IndexReport report = index(MailSource.at(dir.resolve("maildir")), MailSource.at(csv)).report();
        assertEquals(10, report.messagesRead());
        assertEquals(3, report.indexed());
        assertEquals(List.of(
                        new IndexReport.SkippedMessage("inbox/2.", "no Message-ID header"),
                        new IndexReport.SkippedMessage("inbox/3.", "unparseable Date header 'the fourteenth of May'"),
                        new IndexReport.SkippedMessage("inbox/4.", "empty message"),
                        new IndexReport.SkippedMessage("mail.csv:12 (a/2.)", "row has no message text"),
                        new IndexReport.SkippedMessage("mail.csv:22",
                                "malformed CSV row: Too many entries: expected at most 2 (value #2 (5 chars) \"stray\")"),
                        new IndexReport.SkippedMessage("mail.csv:31",
                                "malformed CSV from this line to the end of the file, not read: Missing closing quote for value")),
                report.skipped());
        assertEquals(List.of(new IndexReport.SkippedMessage("inbox/5.", "same Message-ID as inbox/1.")), report.duplicates());
    }

    @Test
    void unreadableMailboxesFailWithTheirPathAndTheProblem() throws Exception {
        Path missing = dir.resolve("nowhere");
        assertEquals("cannot read maildir " + missing + ": no such directory",
                assertThrows(MailSourceException.class, () -> new MaildirSource(missing).read(null)).getMessage());
        assertEquals("cannot read mbox " + dir + ": it is a directory (a maildir?)",
                assertThrows(MailSourceException.class, () -> new MboxSource(dir).read(null)).getMessage());
        Path notMbox = Files.writeString(dir.resolve("notes.txt"), "\nJust some notes\n");
        assertEquals("cannot read mbox " + notMbox + ": line 2 comes before the first 'From ' separator line; is this an mbox file?",
                assertThrows(MailSourceException.class, () -> index(MailSource.at(notMbox))).getMessage());
        Path wrongCsv = Files.writeString(dir.resolve("wrong.csv"), "id,text\n1,hello\n");
        MailSourceException noColumn = assertThrows(MailSourceException.class, () -> index(MailSource.at(wrongCsv)));
        assertTrue(noColumn.getMessage().startsWith("CSV mailbox " + wrongCsv + " has no 'message' column"), noColumn.getMessage());
        assertEquals("cannot read CSV mailbox " + missing + ".csv: no such file",
                assertThrows(MailSourceException.class, () -> MailSource.at(dir.resolve("nowhere.csv")).read(null)).getMessage());
    }
}
