package dev.toolcoach.agent.replay;

import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.lm.Tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ids 0–255 are the UTF-8 bytes of the text; special tokens get the ids from 256 on, in the order
 * given. Every string round-trips exactly.
 */
public final class ByteTokenizer implements Tokenizer {

    private final Map<String, Integer> specials = new LinkedHashMap<>();
    private final String[] byId;

    public ByteTokenizer(List<String> specialTokens) {
        byId = new String[specialTokens.size()];
        for (String s : specialTokens) {
            if (s.isEmpty()) throw new IllegalArgumentException("a special token must not be empty");
            if (specials.putIfAbsent(s, 256 + specials.size()) != null) {
                throw new IllegalArgumentException("special token " + s + " is listed twice");
            }
            byId[specials.size() - 1] = s;
        }
    }

    /** The special tokens of ChatML (Qwen). */
    public static ByteTokenizer chatMl() {
        return new ByteTokenizer(List.of(ChatMl.IM_START, ChatMl.IM_END, ChatMl.END_OF_TEXT));
    }

    @Override
    public int[] encode(String text) {
        int[] out = new int[text.length() * 3]; // UTF-8 needs at most 3 bytes per UTF-16 char
        int n = 0;
        int pos = 0;
        int plainStart = 0;
        while (pos < text.length()) {
            String special = specialAt(text, pos);
            if (special == null) {
                pos++;
                continue;
            }
            n = appendBytes(text.substring(plainStart, pos), out, n);
            out[n++] = specials.get(special);
            pos += special.length();
            plainStart = pos;
        }
        n = appendBytes(text.substring(plainStart), out, n);
        return Arrays.copyOf(out, n);
    }

    @Override
    public String decode(int[] ids) {
        StringBuilder text = new StringBuilder();
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        for (int id : ids) {
            if (id >= 0 && id < 256) {
                pending.write(id);
            } else if (id >= 256 && id - 256 < byId.length) {
                text.append(pending.toString(StandardCharsets.UTF_8));
                pending.reset();
                text.append(byId[id - 256]);
            } else {
                throw new IllegalArgumentException("token id " + id + " is outside the vocabulary of "
                        + vocabularySize());
            }
        }
        return text.append(pending.toString(StandardCharsets.UTF_8)).toString();
    }

    @Override
    public Map<String, Integer> specialTokens() {
        return Collections.unmodifiableMap(specials);
    }

    public int vocabularySize() {
        return 256 + byId.length;
    }

    public int id(String specialToken) {
        Integer id = specials.get(specialToken);
        if (id == null) throw new IllegalArgumentException("no special token " + specialToken);
        return id;
    }

    private String specialAt(String text, int pos) {
        for (String s : byId) {
            if (text.startsWith(s, pos)) return s;
        }
        return null;
    }

    private static int appendBytes(String plain, int[] out, int n) {
        for (byte b : plain.getBytes(StandardCharsets.UTF_8)) {
            out[n++] = b & 0xFF;
        }
        return n;
    }
}
