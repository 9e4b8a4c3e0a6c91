package dev.toolcoach.model.tokenizer;

import dev.toolcoach.model.io.ModelLoadException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * llama2.c's tokenizer.bin (max token length, then per token: score f32, length i32, bytes), with run.c's
 * encode (dummy-prefix space, UTF-8 code points, byte fallback at id+3, greedy best-score merges) and decode.
 */
public final class Llama2cTokenizer implements ModelTokenizer {
    private static final int BOS = 1;
    private static final int EOS = 2;

    private final String[] pieces;
    private final byte[][] bytes;
    private final float[] scores;
    private final Map<String, Integer> ids = new HashMap<>();

    private Llama2cTokenizer(byte[][] bytes, float[] scores) {
        this.bytes = bytes;
        this.scores = scores;
        this.pieces = new String[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            pieces[i] = new String(bytes[i], StandardCharsets.UTF_8);
            ids.putIfAbsent(pieces[i], i);
        }
    }

    /** Reads a tokenizer.bin holding {@code vocabSize} tokens (the checkpoint's vocabulary size). */
    public static Llama2cTokenizer read(Path file, int vocabSize) {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ModelLoadException(file, Files.exists(file) ? "cannot read (" + e.getMessage() + ")" : "file not found", e);
        }
        ByteBuffer buf = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        byte[][] bytes = new byte[vocabSize][];
        float[] scores = new float[vocabSize];
        try {
            buf.getInt(); // max token length: not needed, Java strings grow
            for (int i = 0; i < vocabSize; i++) {
                scores[i] = buf.getFloat();
                int len = buf.getInt();
                if (len < 0 || len > buf.remaining()) {
                    throw new ModelLoadException(file, "corrupt tokenizer: token " + i + " claims " + len + " bytes");
                }
                bytes[i] = new byte[len];
                buf.get(bytes[i]);
            }
        } catch (BufferUnderflowException e) {
            throw new ModelLoadException(file, "tokenizer holds fewer tokens than the model's vocabulary size " + vocabSize, e);
        }
        if (buf.hasRemaining()) {
            throw new ModelLoadException(file, "tokenizer holds more tokens than the model's vocabulary size " + vocabSize
                    + " (" + buf.remaining() + " bytes left over)");
        }
        return new Llama2cTokenizer(bytes, scores);
    }

    @Override
    public int[] encode(String text) {
        int[] tokens = new int[text.length() * 2 + 3];
        int n = 0;
        if (!text.isEmpty()) {
            tokens[n++] = ids.get(" ");
        }
        for (int cp : text.codePoints().toArray()) {
            String s = new String(Character.toChars(cp));
            Integer id = ids.get(s);
            if (id != null) {
                tokens[n++] = id;
            } else {
                for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
                    tokens[n++] = (b & 0xff) + 3;
                }
            }
        }
        while (true) {
            float best = -1e10f;
            int bestId = -1;
            int bestIdx = -1;
            for (int i = 0; i < n - 1; i++) {
                Integer id = ids.get(pieces[tokens[i]] + pieces[tokens[i + 1]]);
                if (id != null && scores[id] > best) {
                    best = scores[id];
                    bestId = id;
                    bestIdx = i;
                }
            }
            if (bestIdx == -1) {
                break;
            }
            tokens[bestIdx] = bestId;
            System.arraycopy(tokens, bestIdx + 2, tokens, bestIdx + 1, n - bestIdx - 2);
            n--;
        }
        return Arrays.copyOf(tokens, n);
    }

    /** run.c's decode of one token following {@code prev}: a leading space is dropped after BOS, <0xXX> is a raw byte. */
    public byte[] piece(int prev, int token) {
        byte[] p = bytes[token];
        if (prev == BOS && p.length > 0 && p[0] == ' ') {
            return Arrays.copyOfRange(p, 1, p.length);
        }
        String s = pieces[token];
        if (s.length() == 6 && s.startsWith("<0x") && s.endsWith(">")) {
            return new byte[] {(byte) Integer.parseInt(s.substring(3, 5), 16)};
        }
        return p;
    }

    /** Like run.c's safe_printf: a single raw byte that is neither printable nor whitespace prints nothing. */
    public static boolean printable(byte[] piece) {
        if (piece.length == 1) {
            int c = piece[0] & 0xff;
            return (c >= 0x20 && c < 0x7f) || c == ' ' || (c >= '\t' && c <= '\r'); // C's isprint || isspace
        }
        return true;
    }

    @Override
    public String decode(int[] tokens) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int prev = BOS;
        for (int t : tokens) {
            byte[] p = piece(prev, t);
            if (printable(p)) {
                out.writeBytes(p);
            }
            prev = t;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public int vocabSize() {
        return bytes.length;
    }

    @Override
    public int bosId() {
        return BOS;
    }

    @Override
    public int eosId() {
        return EOS;
    }
}
