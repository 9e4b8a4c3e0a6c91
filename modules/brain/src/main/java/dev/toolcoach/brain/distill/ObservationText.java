package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.trace.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recovers the tool outputs from the text the agent loop appends after a reply (its closing text,
 * the rendered tool-response message and the next generation prefix), for any chat format: the
 * format's layout is learnt by rendering marker outputs and reading the literal text around them.
 */
final class ObservationText {

    private static final String MARK = "\u0001OUTPUT\u0001";

    private final ChatFormat chat;

    ObservationText(ChatFormat chat) {
        this.chat = chat;
    }

    /** The content of the tool-response message in {@code appended}, or the trimmed text when the layout differs. */
    String messageContent(String appended, boolean replyEndedByStop) {
        String text = strip(appended, chat.closeReply(replyEndedByStop), chat.generationPrefix());
        String rendered = chat.renderMessage(Message.tool(MARK));
        int at = rendered.indexOf(MARK);
        return strip(text, rendered.substring(0, at), rendered.substring(at + MARK.length()));
    }

    /** The {@code count} separate outputs in a tool-response message's content, if it has that layout. */
    Optional<List<String>> outputs(String content, int count) {
        if (count < 1) return Optional.empty();
        List<String> marks = new ArrayList<>();
        for (int i = 0; i < count; i++) marks.add(MARK);
        String[] literals = chat.toolResponses(marks).content().split(Pattern.quote(MARK), -1);
        StringBuilder regex = new StringBuilder(Pattern.quote(literals[0]));
        for (int i = 1; i < literals.length; i++) regex.append("(.*?)").append(Pattern.quote(literals[i]));
        Matcher m = Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(content);
        if (!m.matches()) return Optional.empty();
        List<String> outputs = new ArrayList<>();
        for (int i = 1; i <= count; i++) outputs.add(m.group(i));
        return Optional.of(outputs);
    }

    private static String strip(String text, String prefix, String suffix) {
        if (text.startsWith(prefix) && text.endsWith(suffix) && text.length() >= prefix.length() + suffix.length()) {
            return text.substring(prefix.length(), text.length() - suffix.length());
        }
        return text.strip();
    }
}
