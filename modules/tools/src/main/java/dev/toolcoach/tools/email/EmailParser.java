package dev.toolcoach.tools.email;

import org.apache.james.mime4j.codec.DecodeMonitor;
import org.apache.james.mime4j.dom.Body;
import org.apache.james.mime4j.dom.Entity;
import org.apache.james.mime4j.dom.Message;
import org.apache.james.mime4j.dom.Multipart;
import org.apache.james.mime4j.dom.TextBody;
import org.apache.james.mime4j.dom.address.AddressList;
import org.apache.james.mime4j.dom.address.Mailbox;
import org.apache.james.mime4j.dom.address.MailboxList;
import org.apache.james.mime4j.message.DefaultMessageBuilder;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeConfig;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses RFC 822 / MIME messages with Apache James mime4j: unfolds and decodes headers (RFC 2047),
 * parses address lists and RFC 822 dates, undoes transfer encodings, and takes the first
 * text/plain part of a multipart message as the body. Thread-safe.
 */
public final class EmailParser {

    private static final MimeConfig CONFIG = MimeConfig.PERMISSIVE;

    /** The parsed message; a message that cannot be indexed is reported with the reason. */
    public Email parse(RawMessage raw) throws MalformedMessageException {
        Message message = read(raw.content());
        try {
            String messageId = message.getMessageId();
            if (messageId == null || Email.normaliseId(messageId).isEmpty()) throw new MalformedMessageException("no Message-ID header");
            if (message.getDate() == null) {
                Field date = message.getHeader().getField("Date");
                throw new MalformedMessageException(date == null ? "no Date header"
                        : "unparseable Date header '" + date.getBody().strip() + "'");
            }
            Mailbox sender = firstMailbox(message.getFrom());
            return new Email(Email.normaliseId(messageId),
                    sender == null ? "" : sender.getAddress().toLowerCase(),
                    senderName(sender, message),
                    addresses(message.getTo()), addresses(message.getCc()),
                    message.getSubject(), message.getDate().toInstant(), bodyText(message.getBody()), raw.location());
        } finally {
            message.dispose();
        }
    }

    private static Message read(byte[] content) throws MalformedMessageException {
        if (content.length == 0) throw new MalformedMessageException("empty message");
        DefaultMessageBuilder builder = new DefaultMessageBuilder();
        builder.setMimeEntityConfig(CONFIG);
        builder.setDecodeMonitor(DecodeMonitor.SILENT);
        try (InputStream in = new ByteArrayInputStream(content)) {
            Message message = builder.parseMessage(in);
            if (message.getHeader().getFields().isEmpty()) {
                message.dispose();
                throw new MalformedMessageException("no header section");
            }
            return message;
        } catch (IOException e) {
            throw new MalformedMessageException("not a MIME message: " + e.getMessage());
        }
    }

    /**
     * The From display name, else the {@code X-From} header that Exchange/Notes exports (the Enron
     * corpus among them) write beside a bare From address, without its directory path.
     */
    private static String senderName(Mailbox sender, Message message) {
        if (sender != null && sender.getName() != null && !sender.getName().isBlank()) return sender.getName();
        Field exported = message.getHeader().getField("X-From");
        if (exported == null) return "";
        String name = exported.getBody();
        int path = name.indexOf('<');
        return (path >= 0 ? name.substring(0, path) : name).strip();
    }

    private static Mailbox firstMailbox(MailboxList list) {
        return list == null || list.isEmpty() ? null : list.get(0);
    }

    private static List<String> addresses(AddressList list) {
        List<String> addresses = new ArrayList<>();
        if (list != null) list.flatten().forEach(m -> addresses.add(m.getAddress().toLowerCase()));
        return addresses;
    }

    /** The first text/plain part in document order, else the first text part of any kind, else empty. */
    private static String bodyText(Body body) throws MalformedMessageException {
        TextBody text = firstText(body, true);
        if (text == null) text = firstText(body, false);
        if (text == null) return "";
        try (Reader reader = text.getReader()) {
            StringWriter out = new StringWriter();
            reader.transferTo(out);
            return out.toString();
        } catch (IOException e) {
            throw new MalformedMessageException("body cannot be decoded: " + e.getMessage());
        }
    }

    private static TextBody firstText(Body body, boolean plainOnly) {
        if (body instanceof TextBody text) {
            Entity parent = text.getParent();
            boolean plain = parent == null || "text/plain".equalsIgnoreCase(parent.getMimeType());
            return plain || !plainOnly ? text : null;
        }
        if (body instanceof Multipart multipart) {
            for (Entity part : multipart.getBodyParts()) {
                TextBody found = firstText(part.getBody(), plainOnly);
                if (found != null) return found;
            }
        }
        if (body instanceof Message nested) return firstText(nested.getBody(), plainOnly);
        return null;
    }
}
